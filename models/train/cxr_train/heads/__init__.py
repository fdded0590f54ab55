"""Classifier: the frozen ImageNet backbone, model 2's head on cached features, calibration and thresholds."""
