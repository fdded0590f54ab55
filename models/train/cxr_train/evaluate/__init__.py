"""Measurements on held-out data and the model card written from them."""
