"""Commands that run the whole stack on one machine, for people and for measurements:
`pocha serve` (`serve`, with a private Redis from `embedded_redis`), the load benches
(`bench_api`, `bench_bots`), the soak (`soak`), and how their child processes live and
die (`processes`).

Nothing in the service or the workers imports this package; the CLI imports each module
only when its command runs.
"""
