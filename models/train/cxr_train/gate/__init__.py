"""Input gate: deterministic checks, the gate net, its generated negatives and its training."""
