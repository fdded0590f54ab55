"""Data: the two data sets decoded into .cache/v2, the label map, the evaluation populations, augmentation."""
