"""What `legalsearch node status` reports: pure assembly of facts read through the store."""

from __future__ import annotations

from search.errors import LegalSearchError
from search.node import assembly, process
from search.store import Store


def node_status(store: Store) -> dict:
    """Facts about the node in use (OPENSEARCH_URL or the local node); never raises for a down node."""
    settings = store.settings
    report: dict = {
        "source": "OPENSEARCH_URL" if settings.opensearch_url else "local node",
        "node_home": str(settings.node_home),
        "installed": assembly.is_installed(settings),
        "log": str(process.log_file(settings)),
        "reachable": False,
    }
    try:
        report["url"] = store.url
        info = store.info()
        health = store.health()
    except LegalSearchError as e:
        report["error"] = str(e)
        return report
    report.update(
        reachable=True,
        version=info["version"]["number"],
        distribution=info["version"].get("distribution", "opensearch"),
        cluster=info.get("cluster_name"),
        health=health["status"],
        plugins=sorted({f"{p['component']} {p['version']}" for p in store.plugins()}),
        heap=store.node_jvm(),
        indices=[
            {"index": i["index"], "docs": int(i.get("docs.count") or 0), "size": i.get("store.size"),
             "health": i.get("health")}
            for i in store.indices()
            if not i["index"].startswith(".")
        ],
    )
    return report


def render(report: dict) -> str:
    lines = [f"node:     {report.get('url', '-')} ({report['source']})"]
    if not report["reachable"]:
        lines.append(f"status:   not reachable: {report.get('error', '')}")
        lines.append(f"installed: {report['installed']} (home {report['node_home']}); log: {report['log']}")
        return "\n".join(lines)
    lines += [
        f"version:  OpenSearch {report['version']} ({report['cluster']})",
        f"health:   {report['health']}",
        "plugins:  " + (", ".join(report["plugins"]) or "none"),
    ]
    for heap in report["heap"]:
        lines.append(
            f"heap:     {heap['heap_used_bytes'] / 2**20:.0f} MiB used of {heap['heap_max_bytes'] / 2**20:.0f} MiB"
            f" ({heap['name']})"
        )
    lines.append(f"indices:  {len(report['indices'])}")
    for idx in sorted(report["indices"], key=lambda i: i["index"]):
        lines.append(f"  {idx['index']:<40} {idx['docs']:>9} docs  {idx['size'] or '':>8}  {idx['health']}")
    if report["source"] == "local node":
        lines.append(f"home:     {report['node_home']} (log: {report['log']})")
    return "\n".join(lines)
