"""Model 5: heads chosen for specificity (one-vs-rest), an adult airspace-opacity finding and a retrained projection.

Model 5 keeps model 3's network up to the head's input (the standardised pooled features) and refits the linear
head on more films: cxr-nih-more, cxr-extra's ChestX-ray14 and QU-Ex train/val films, and cxr-external-val under
patient-grouped k-fold cross-validation (every choice: regularisation, calibration, operating points, what ships).
"""
