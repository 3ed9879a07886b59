"""Command-line tools on the engine alone: `python -m rules.tools.fairlog` (check a finished game's dice),
`rules.tools.simulate` (bot games and throughput), `rules.tools.render_maps` (the Seafarers maps as SVG)."""
