"""The hard bot's position value, written by bench/fit_value.py: do not edit by hand.

The linear fit of issue 43's second round, no hidden units: bench/fit_value.py --games 3000 (medium self-play, seeds
1,000,000 on) --hidden 0; held-out log-loss 1.0566 on 44,476 positions. A network with 16 hidden units fitted on
population games (--games 8000 --seed 3000000 --styles --hidden 16: held-out log-loss 1.0171 against 1.0350 for the
linear fit on the same positions) played no better against AlphaBeta (docs/BOTS.md, third round).
"""

LINEAR: tuple[float, ...] = (
    0.89690, 0.99960, -0.21970, -0.13850, 0.89550, -0.16510, -0.02220, -0.17130, -0.02620, 0.00000,
    0.24670, 0.47760, 0.41810, 0.70280, 0.15640, 0.71110, 0.16030, 0.08860, 0.07530, 0.08160,
    -0.08860, 0.32370, -0.95630, -0.84040, 0.68510, 0.28560, 0.25830, 0.11020,
)
HIDDEN: tuple[tuple[float, ...], ...] = (
)
HIDDEN_BIAS: tuple[float, ...] = (
)
OUTPUT: tuple[float, ...] = (
)
