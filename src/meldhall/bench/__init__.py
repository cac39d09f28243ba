"""Benchmarks (``meldhall bench NAME``): alternate batches against a peer, medians and ratios.

A bench module exposes ``main(args) -> int``; a game id without its own module uses
``meldhall.bench.hands`` (random full hands per second).
"""
