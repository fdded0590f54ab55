"""Step m4-cardiomegaly: a cardiomegaly probability from the measured heart (CTR) and the projection.

p = sigmoid(ctrWeight * CTR + apWeight * [AP film] + bias). No labelled cardiomegaly set is left to fit it on
(cxr-extra's gate-accepted ChestX-ray14 films with a view hold 6 positives), so its three numbers are a
calibration of the CTR fitted on the external validation films' ChestX-ray14 rows whose CTR passed the
plausibility checks, the projection being the model's own call (those films record no view). The figures on
these films are therefore optimistic (said so on the card); the hidden half measures it. A flagged or missing CTR
gives no probability at all (the product says why), never a guess from the classifier.
Writes .cache/m4/cardiomegaly.json.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model4.cardiomegaly
"""
from __future__ import annotations

import json

import numpy as np
from sklearn.linear_model import LogisticRegression

from cxr_train.common import cli_parser, write_json
from cxr_train.heads.head import auroc
from cxr_train.model4.data import external_rows, projection_ap
from cxr_train.model4.dump import M4


def parser():
    return cli_parser(__doc__)


def main() -> None:
    parser().parse_args()
    proj = json.loads((M4 / "projection.json").read_text())
    rows = [r for r in external_rows() if r["source"] == "nih-cxr14" and r["out"] is not None and r["out"]["ctr"] is not None]
    y = np.array(["Cardiomegaly" in r["findings_set"] for r in rows], dtype=int)
    ap = np.array([projection_ap(r["out"], proj) >= 0.5 for r in rows], dtype=np.float64)
    ctr = np.array([r["out"]["ctr"] for r in rows])
    m = LogisticRegression(C=1e4, max_iter=1000).fit(np.c_[ctr, ap], y)
    w = m.coef_[0]
    res = {"films": int(len(rows)), "positives": int(y.sum()), "apFilms": int(ap.sum()),
           "aucCtrAlone": auroc(y, ctr), "aucCombined": auroc(y, np.c_[ctr, ap] @ w),
           "ctrCombine": {"ctrWeight": float(w[0]), "apWeight": float(w[1]), "logitWeight": 0.0, "bias": float(m.intercept_[0])}}
    print(res)
    write_json(M4 / "cardiomegaly.json", res)


if __name__ == "__main__":
    main()
