"""Tools on top of the pipeline: the demo, node status, `inspect`, Dashboards saved objects and
the generated CLI reference."""
