"""Generators of non-radiograph images for the input gate (all synthetic or from Debian
packages on disk; nothing is downloaded). Each generator takes a numpy Generator and
returns a PIL image; a given seed always gives the same image.

Kinds (GENERATORS): synthetic photos, noise, gradients, documents, UI screenshots, natural
pictures, and the medical look-alikes, rendered from a physical map rather than flat fills:
- ct_slice: axial CT (chest in lung / soft-tissue / bone window, abdomen, head) built in
  Hounsfield units: near-black lungs with bright branching vessels and dots, dependent
  density, ground glass, ribs, vertebra, scapulae, table arc, circular field of view,
  correlated noise and blur; cropped to the body, zoomed on a region, 2x2 panels, viewer
  text; 10 % the first flat style.
- ct_reformat: coronal and sagittal chest CT reformats (the CT views most like a frontal film).
- other_body_part: radiographs (exponential attenuation of bone shafts with cortex, soft
  tissue, edge enhancement, collimation, lead markers) of hand, knee / long bones, skull,
  spine, pelvis, shoulder, mammogram, dental panoramic; 12 % the first flat style.
- abdomen_radiograph: frontal abdominal films (lumbar spine, pelvis, lower ribs, bowel gas).
- lateral_chest: lateral chest films. The product analyses frontal films only, so a lateral
  chest film is refused with 'not_cxr' ("does not look like a frontal chest radiograph").
- mri_slice, ultrasound.
Radiograph-like and CT kinds are sometimes inverted, so polarity alone never means "chest"."""
from __future__ import annotations

from cxr_train.gate.generators.abdomen import abdomen_radiograph
from cxr_train.gate.generators.body_parts import body_part
from cxr_train.gate.generators.ct import ct_axial
from cxr_train.gate.generators.ct_reformat import ct_reformat
from cxr_train.gate.generators.everyday import NATURAL_TEST, NATURAL_TRAIN, document, gradient, natural, noise, photo, screenshot
from cxr_train.gate.generators.lateral_chest import lateral_chest
from cxr_train.gate.generators.mri import mri_slice
from cxr_train.gate.generators.ultrasound import ultrasound

__all__ = ["GENERATORS", "NATURAL_TEST", "NATURAL_TRAIN"]

# The first eight keep their order (cxr_train.gate.build_data derives seeds from the position).
GENERATORS = {
    "photo_synthetic": photo,
    "noise": noise,
    "gradient": gradient,
    "document": document,
    "screenshot": screenshot,
    "ct_slice": ct_axial,
    "other_body_part": body_part,
    "natural_image": natural,
    "ct_reformat": ct_reformat,
    "abdomen_radiograph": abdomen_radiograph,
    "lateral_chest": lateral_chest,
    "mri_slice": mri_slice,
    "ultrasound": ultrasound,
}
