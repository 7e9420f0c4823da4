"""The demo hook of each workflow (``demos/<workflow>.py``), run by :mod:`repro_assets.demo`.

A hook drives the workflow's jobs and sensors on sample data through a
:class:`~repro_assets.demos.base.DemoContext` and returns one
:class:`~repro_assets.demos.base.DemoRow` per partition.
"""
