# P1 at full speed, then half speed from 150 s; LOOPAFTER: the next repetition 150 s after the last point (period 300)
0 1.0
150 0.5
LOOPAFTER 150
