"""The engine side (docs/engine.md): our query embedding model and query shapes installed INSIDE
OpenSearch, so every client (a Java service, a search UI, Dashboards Dev Tools, curl) gets the same
hybrid, filtered, fused result by naming the index, a stored template and the question.

`install` (what `legalsearch pipelines install` runs for each index): the ml-commons settings,
the remote query and passage models (connectors to our embedding server, `search.embedserver`), the
index's default search pipelines (the query model id + fusion), the `text_embedding` ingest
pipeline, the stored templates of `search.query.templates`, and their ids in the index's `_meta`.

`lifecycle` (`legalsearch node start|stop`): the local node (or cluster) and its embedding server
started and stopped together, the remote models deployed again after a start.
"""

from legalsearch.engine.install import ENGINE_META, install, status

__all__ = ["ENGINE_META", "install", "status"]
