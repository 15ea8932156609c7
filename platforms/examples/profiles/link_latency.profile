# seconds of latency of the link io-P1, repeating every 200 + 150 = 350 s
50 0.3
200 0.1
LOOPAFTER 150
