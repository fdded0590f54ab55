"""Patient-grouped k-fold cross-validation: every choice model 5 makes on the external films is made out of fold."""
from __future__ import annotations

import hashlib

K = 5


def fold_of(group: str, k: int = K) -> int:
    """A patient's fold, the same in every step and run (a hash, not a draw): a patient's films never straddle a split."""
    return int(hashlib.sha256(group.encode()).hexdigest(), 16) % k
