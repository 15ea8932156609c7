# bytes/s of the link io-P1 (SimGrid: absolute values), repeating every 250 + 100 = 350 s
100 5
250 10
LOOPAFTER 100
