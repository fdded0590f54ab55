"""Anatomy stage: the lung/heart U-Net, what the worker derives from its masks, the CTR plausibility checks."""
