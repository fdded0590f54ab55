"""Model 3's fine-tuning of MobileNetV2 blocks 14-18 and the linear head on cached block-13 activations."""
