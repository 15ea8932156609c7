# P3 turns off at 500 s: a crash (pipesim: fail-silent, no recovery)
500 0
