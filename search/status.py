"""What `legalsearch node status` reports: pure assembly of facts read through the store."""

from __future__ import annotations

from legalsearch import engine
from legalsearch.config import Settings
from legalsearch.embed import device
from legalsearch.errors import AuthenticationError, ConfigError, LegalSearchError
from legalsearch.index import refresh, schema
from legalsearch.node import assembly, cluster, process, webservice
from legalsearch.security.roles import ADMIN_USER, SERVICE_USER
from legalsearch.security.secrets import secrets_of
from legalsearch.store import Store


def node_status(store: Store) -> dict:
    """Facts about the node in use (OPENSEARCH_URL or the local node); never raises for a down node."""
    settings = store.settings
    report: dict = {
        "source": _source(settings),
        "node_home": str(settings.node_home),
        "installed": assembly.is_installed(settings),
        "log": str(process.log_file(settings)),
        "reachable": False,
        "local_cluster": _members(settings),
        "service": _service(settings),
        "device": device.probe(settings.device),  # where local models run here (search.embed.device)
    }
    try:
        report["url"] = store.url  # never with credentials (search.store.connection)
        report["user"] = store.connection.user
        info = store.info()
        health = store.health()
    except AuthenticationError as e:  # it answered: a 401 is a refused password, not a node that is down
        report.update(reachable=True, authenticated=False, error=str(e))
        return report
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
        cluster_health={k: health.get(k) for k in ("number_of_nodes", "number_of_data_nodes", "active_primary_shards",
                                                   "active_shards", "relocating_shards", "initializing_shards",
                                                   "unassigned_shards", "active_shards_percent_as_number")},
        nodes=[{"name": n.get("name"), "address": n.get("http_address") or f"{n.get('ip')}:{n.get('port')}",
                "roles": n.get("node.role"), "cluster_manager": n.get("cluster_manager") == "*",
                "heap_percent": n.get("heap.percent")} for n in store.nodes()],
        shards=[s for s in store.shards() if not s["index"].startswith(".")],
        engine=engine.status(store, settings),
    )
    # A chunks index a killed ingest left with refresh off is made searchable again here.
    report["refresh"] = {}
    for idx in report["indices"]:
        parsed = schema.parse_concrete(idx["index"])
        if parsed and parsed[1] == "chunks":
            state = refresh.recover(store, idx["index"])
            if state["refresh"] != "on":
                report["refresh"][idx["index"]] = state
    return report


def _service(settings) -> dict | None:
    """The search service `serve --background` started here: its URL, pid and readiness."""
    state = webservice.running(settings)
    if state is None:
        return None
    status, body = webservice.ready(state.url)
    return {"url": state.url + "/", "pid": state.pid, "ready": status == 200,
            "detail": None if status == 200 else body.get("detail") or f"HTTP {status or 'no answer'}"}


def _source(settings) -> str:
    if settings.opensearch_url:
        return "OPENSEARCH_URL"
    if not process.local_url(settings) and cluster.local_urls(settings):
        return "local cluster"
    return "local node"


def _members(settings) -> list[dict]:
    """The nodes of the local cluster as last started from this node home (pid alive or not)."""
    state = cluster.read_state(cluster.ClusterSpec.local(settings).root)
    if not state:
        return []
    return [{"name": m.name, "url": m.url, "pid": m.pid, "running": m.alive, "home": m.home} for m in state.members]


def render(report: dict) -> str:
    lines = [f"node:     {report.get('url', '-')} ({report['source']})"
             + (f" as {report['user']}" if report.get("user") else "")]
    if report.get("device"):
        lines.append(f"device:   local models: {device.render(report['device'])}")
    if report.get("authenticated") is False:
        lines.append(f"status:   reachable, but it refused the credentials: {report.get('error', '')}")
        return "\n".join(lines)
    if not report["reachable"]:
        lines.append(f"status:   not reachable: {report.get('error', '')}")
        lines.append(f"installed: {report['installed']} (home {report['node_home']}); log: {report['log']}")
        return "\n".join(lines)
    ch = report.get("cluster_health", {})
    lines += [
        f"version:  OpenSearch {report['version']} ({report['cluster']})",
        f"health:   {report['health']}  ({ch.get('number_of_nodes')} nodes, {ch.get('active_shards')} shards active, "
        f"{ch.get('initializing_shards')} initializing, {ch.get('relocating_shards')} relocating, "
        f"{ch.get('unassigned_shards')} unassigned)",
        "plugins:  " + (", ".join(report["plugins"]) or "none"),
    ]
    for n in report.get("nodes", []):
        manager = "  (cluster manager)" if n["cluster_manager"] else ""
        lines.append(f"node:     {n['name']:<10} {n['address']:<22} roles {n['roles']}  heap {n['heap_percent']}%{manager}")
    for m in report.get("local_cluster", []) if report["source"] == "local cluster" else []:
        if not m["running"]:
            lines.append(f"down:     {m['name']} ({m['url']}, last pid {m['pid']}): `legalsearch node start --nodes "
                         f"{len(report['local_cluster'])}` brings it back")
    for heap in report["heap"]:
        lines.append(
            f"heap:     {heap['heap_used_bytes'] / 2**20:.0f} MiB used of {heap['heap_max_bytes'] / 2**20:.0f} MiB"
            f" ({heap['name']})"
        )
    server = report["engine"]["server"]
    lines.append(f"embedding server: {server['url']} {server['status']}"
                 + (f" ({', '.join(server['models'] or [])})" if server["status"] == "ok" else
                    f": {server.get('error') or 'start it with `legalsearch node start`'}"))
    service = report.get("service")
    lines.append("search service: " + (f"{service['url']} (pid {service['pid']}) "
                                       + ("ready" if service["ready"] else f"not ready: {service['detail']}")
                                       if service else "not running (`legalsearch serve --background` starts it)"))
    for m in report["engine"]["models"]:
        lines.append(f"  model {m['name']:<30} {m['state'] or '-':<14} {m['model_id']}  "
                     f"held: {m.get('held') or 'by no node'}" if "name" in m else f"  models: {m}")
    lines.append(f"indices:  {len(report['indices'])}")
    for idx in sorted(report["indices"], key=lambda i: i["index"]):
        lines.append(f"  {idx['index']:<40} {idx['docs']:>9} docs  {idx['size'] or '':>8}  {idx['health']}")
        copies = [s for s in report.get("shards", []) if s["index"] == idx["index"]]
        if len(report.get("nodes", [])) > 1 and copies:
            lines.append("    shards: " + ", ".join(
                f"{s['shard']}{s['prirep']} {s['state'].lower()} on {s.get('node') or '-'}" for s in copies))
        state = report.get("refresh", {}).get(idx["index"])
        if state:
            lines.append(f"    refresh: {state['refresh']}" + (f" ({state['message']})" if state["message"] else
                                                                 f" by {', '.join(state['writers'])}"))
    if report["source"] == "local node":
        lines.append(f"home:     {report['node_home']} (log: {report['log']})")
    elif report["source"] == "local cluster":
        lines.append(f"home:     {report['node_home']}/cluster (logs: <node>/logs/{cluster.CLUSTER_NAME}.log)")
    return "\n".join(lines)


def credentials(settings: Settings, show_password: bool = False) -> dict:
    """How to log in to the local node; the admin password only when asked for."""
    found = secrets_of(settings)
    if found is None:
        raise ConfigError(f"no readable secrets for the local node in {settings.node_secrets}: start it once with "
                          "`legalsearch node start`, or run as the user who did")
    report = {
        "url": process.local_url(settings) or ",".join(cluster.local_urls(settings)) or None,
        "user": ADMIN_USER,
        "ca_certs": str(found.pki.ca),
        "admin_password_file": str(found.admin_password_file),
        "service_user": SERVICE_USER,
        "service_password_file": str(found.service_password_file),
        "secrets_dir": str(found.folder),
    }
    if show_password:
        report["admin_password"] = found.admin_password()
    return report


def render_credentials(report: dict) -> str:
    lines = [
        f"url:       {report['url'] or '(the local node is not running: legalsearch node start)'}",
        f"user:      {report['user']}",
        "password:  " + (report["admin_password"] if "admin_password" in report
                         else f"in {report['admin_password_file']} (or --show-password)"),
        f"CA:        {report['ca_certs']}",
        f"service:   {report['service_user']} (password in {report['service_password_file']})",
        f"curl:      curl --cacert {report['ca_certs']} -u {report['user']} {(report['url'] or 'https://127.0.0.1:9200').split(',')[0]}",
    ]
    return "\n".join(lines)
