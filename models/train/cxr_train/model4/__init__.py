"""Model 4: model 3's network judged on films from other hospitals (cxr-external-val).

Steps (each `python3 -m cxr_train.model4.<step>`, wired into `cxr_train.run` after model 3's chain):
`dump` runs the product's own TypeScript pipeline over the labelled films and records every raw output,
`projection` fits the AP/PA output on cxr-extra's ChestX-ray14 view labels, `cardiomegaly` fits the
cardiomegaly output from the measured heart and the projection, `external` scores every candidate on the
external films, applies the written shipping rule, calibrates and picks operating points, and `export`
writes model.onnx (with the projection output) and manifest.json 4.x.
"""
