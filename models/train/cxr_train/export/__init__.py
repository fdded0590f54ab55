"""The shipped files (ONNX, manifest), the Python reference pipelines and the fixtures of the TypeScript tests."""
