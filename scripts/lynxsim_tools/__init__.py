"""Shared code of the lynxsim sweep, plotting and regression scripts.

lynxsim itself writes one results folder per run (scenario.resolved.json, summary.json,
requests.csv). Everything here works from those files only, so the scripts never depend on the
simulator's internals:

- sweep_file: reads and validates a sweep file (a base scenario plus axes of overrides).
- points: expands a sweep into its points (cartesian product, deterministic order, stable folder
  names) and selects a shard of them.
- runner: runs lynxsim once per point in parallel, skipping points already done.
- results: reads results folders and flattens them into CSV rows.
- plots, plot_data: the PNG figures drawn from those rows.
- regression_check: the key ratios of the canonical scenarios against committed expectations.

Standard library only, except plots, which needs matplotlib (Agg backend).
"""
