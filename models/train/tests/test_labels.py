"""row_targets: each source sets only the findings it can speak for; the rest stay unknown (-1)."""
from cxr_train.data.labels import LABELS, NIH, NIH_KEYS, row_targets

NIH_LABELS = [NIH_KEYS[n] for n in NIH]


def targets(dataset: str, row: dict) -> dict:
    t = row_targets(dataset, row)
    assert len(t) == len(LABELS)
    return dict(zip(LABELS, t))


def nih_row(**flags: str) -> dict:
    row = {"source": "nih-cxr14", "dataset_label": "", "no_finding": "0", "Pneumonia": "0"}
    row.update({n: "0" for n in NIH})
    row.update(flags)
    return row


def test_cxr224_covid_is_abnormal_with_opacity_and_leaves_nih_findings_unknown():
    t = targets("cxr-224", {"label": "covid19", "subtype": "", "source": "covid-qu-ex"})
    assert (t["abnormal"], t["pneumonia"], t["covid19"]) == (1, 1, 1)
    assert t["viral_given_pneumonia"] == -1
    assert all(t[k] == -1 for k in NIH_LABELS)


def test_cxr224_viral_pneumonia_sets_the_subtype_target():
    t = targets("cxr-224", {"label": "pneumonia", "subtype": "viral", "source": "pediatric"})
    assert (t["pneumonia"], t["covid19"], t["viral_given_pneumonia"]) == (1, 0, 1)
    t = targets("cxr-224", {"label": "pneumonia", "subtype": "bacterial", "source": "pediatric"})
    assert t["viral_given_pneumonia"] == 0


def test_cxr224_normal_clears_nih_findings_only_for_radiologist_read_normals():
    read = targets("cxr-224", {"label": "normal", "subtype": "", "source": "covid-radiography-db"})
    assert read["abnormal"] == 0 and all(read[k] == 0 for k in NIH_LABELS)
    other = targets("cxr-224", {"label": "normal", "subtype": "", "source": "pediatric"})
    assert other["abnormal"] == 0 and all(other[k] == -1 for k in NIH_LABELS)


def test_nih_consolidation_without_pneumonia_label_is_unknown_pneumonia():
    t = targets("cxr-extra", nih_row(Consolidation="1"))
    assert t["abnormal"] == 1 and t["consolidation"] == 1
    assert t["pneumonia"] == -1
    assert t["covid19"] == 0
    assert targets("cxr-extra", nih_row(Pneumonia="1"))["pneumonia"] == 1
    assert targets("cxr-extra", nih_row(no_finding="1"))["pneumonia"] == 0


def test_nih_effusion_maps_to_pleural_effusion():
    t = targets("cxr-extra", nih_row(Effusion="1", Pleural_Thickening="1"))
    assert t["pleural_effusion"] == 1 and t["pleural_thickening"] == 1
    assert t["nodule"] == 0


def test_jsrt_speaks_only_for_nodule_and_covid():
    t = targets("cxr-extra", {"source": "jsrt", "dataset_label": "nodule"})
    assert (t["nodule"], t["abnormal"], t["covid19"]) == (1, 1, 0)
    t = targets("cxr-extra", {"source": "jsrt", "dataset_label": "normal"})
    assert (t["nodule"], t["abnormal"], t["covid19"]) == (0, -1, 0)
    assert t["pneumonia"] == -1


def test_nih_no_finding_is_a_normal_film_with_every_finding_absent():
    t = targets("cxr-extra", nih_row(no_finding="1"))
    assert t["abnormal"] == 0 and t["pneumonia"] == 0 and t["covid19"] == 0
    assert all(t[k] == 0 for k in NIH_LABELS)


def test_qu_ex_normal_clears_nih_findings_and_a_covid_film_leaves_them_unknown():
    normal = targets("cxr-extra", {"source": "covid-qu-ex", "dataset_label": "normal"})
    assert normal["abnormal"] == 0 and all(normal[k] == 0 for k in NIH_LABELS)
    covid = targets("cxr-extra", {"source": "covid-qu-ex", "dataset_label": "covid19"})
    assert (covid["abnormal"], covid["pneumonia"], covid["covid19"]) == (1, 1, 1)
    assert all(covid[k] == -1 for k in NIH_LABELS)


def test_a_source_without_finding_labels_states_nothing():
    # Wingspan films serve the anatomy stage only: every finding stays unknown rather than guessed.
    assert set(row_targets("cxr-extra", {"source": "wingspan-ctr", "dataset_label": "normal"})) == {-1}


def test_every_target_is_present_absent_or_unknown():
    rows = [
        ("cxr-224", {"label": lab, "subtype": sub, "source": src})
        for lab, sub in (("normal", ""), ("pneumonia", "viral"), ("pneumonia", "bacterial"), ("covid19", ""))
        for src in ("covid-radiography-db", "kermany-pediatric")
    ] + [("cxr-extra", nih_row(Effusion="1", Consolidation="1"))]
    for dataset, row in rows:
        assert set(row_targets(dataset, row)) <= {-1, 0, 1}
