"""Training, evaluation and export of the chest X-ray model, as one package grouped by stage.

- data: decoding the data sets into .cache/v2, the label map, the evaluation populations, augmentation.
- anatomy: the lung/heart U-Net, the lung box and CTR (worker/src/pipeline/anatomy.ts), the CTR checks.
- gate: the input gate's deterministic checks, its net, its generated negatives (one module per modality).
- heads: the frozen backbone, model 2's head on cached features, model 3's fine-tuning, calibration.
- evaluate: the test pass, anatomy, gate, CTR reliability, shortcut checks, ablation and the model card.
- export: ONNX files and manifest, the Python reference pipelines and the fixtures the TypeScript tests read.
- run: the one entry point of a shipped build, every hyper-parameter from a recipe file (recipe.py).

Every step is a module with a `parser()` and a `main()`, run from the repository root as
`PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.<stage>.<step>`.
"""
