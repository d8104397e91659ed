"""Per-node configuration of the single node and of a local cluster (files only, no JVM)."""

from __future__ import annotations

from legalsearch.config import Settings
from legalsearch.node import cluster, process
from legalsearch.node.assembly import dist_dir

STOCK_JVM = "-XX:HeapDumpPath=data\n-XX:ErrorFile=logs/hs_err_pid%p.log\n9-:-Xlog:gc*:file=logs/gc.log:utctime\n"


def _settings(tmp_path) -> Settings:
    settings = Settings(node_home=tmp_path / "home", node_port=9400)
    config = dist_dir(settings) / "config"
    config.mkdir(parents=True)
    (config / "jvm.options").write_text(STOCK_JVM)
    (config / "log4j2.properties").write_text("status = error\n")
    return settings


def test_the_single_node_keeps_its_configuration(tmp_path):
    settings = _settings(tmp_path)
    yml = process.node_settings(settings, 9400, 9500)
    assert yml["discovery.type"] == "single-node" and yml["node.name"] == "local-1"
    assert yml["path.data"] == str(settings.node_home / "data") and yml["network.host"] == "127.0.0.1"


def test_each_cluster_node_gets_its_own_config_data_logs_and_discovery(tmp_path):
    settings = _settings(tmp_path)
    spec = cluster.ClusterSpec.local(settings, 3)
    assert (spec.http_port, spec.transport_port, spec.root) == (9401, 9501, settings.node_home / "cluster")
    members, to_start = cluster._plan_members(settings, spec, {})
    assert members == to_start and [m.name for m in members] == ["ls-1", "ls-2", "ls-3"]
    assert len({m.http_port for m in members} | {m.transport_port for m in members}) == 6
    seeds = [f"127.0.0.1:{m.transport_port}" for m in members]
    for m in members:
        cluster._prepare(settings, spec, m, seeds)
    homes = set()
    for m in members:
        config = spec.root / m.name / "config"
        lines = dict(line.split(": ", 1) for line in (config / "opensearch.yml").read_text().splitlines())
        assert "discovery.type" not in lines
        assert lines["cluster.name"] == cluster.CLUSTER_NAME and lines["node.name"] == m.name
        assert lines["discovery.seed_hosts"] == "[" + ", ".join(f'"{s}"' for s in seeds) + "]"
        assert lines["cluster.initial_cluster_manager_nodes"] == '["ls-1", "ls-2", "ls-3"]'
        assert lines["path.data"] == str(spec.root / m.name / "data") and lines["http.port"] == str(m.http_port)
        jvm = (config / "jvm.options").read_text()
        assert f"file={spec.root / m.name / 'logs' / 'gc.log'}" in jvm and "file=logs/" not in jvm
        assert f"-XX:HeapDumpPath={spec.root / m.name / 'data'}" in jvm
        assert (config / "jvm.options.d" / "heap.options").read_text() == "-Xms1g\n-Xmx1g\n"
        assert (config / "log4j2.properties").is_file()
        homes.add(lines["path.logs"])
    assert len(homes) == 3


def test_every_cluster_node_is_secured_with_the_one_local_ca_and_shared_secrets(tmp_path):
    import json

    import bcrypt
    from legalsearch.security import pki
    from legalsearch.security.secrets import secrets_of

    settings = _settings(tmp_path)
    spec = cluster.ClusterSpec.local(settings, 3)
    members, _ = cluster._plan_members(settings, spec, {})
    assert all(m.url.startswith("https://127.0.0.1:") for m in members)
    seeds = [f"127.0.0.1:{m.transport_port}" for m in members]
    for m in members:
        cluster._prepare(settings, spec, m, seeds)
    found = secrets_of(settings)
    for m in members:
        config = spec.root / m.name / "config"
        lines = dict(line.split(": ", 1) for line in (config / "opensearch.yml").read_text().splitlines())
        assert lines["plugins.security.ssl.http.enabled"] == "true"
        assert lines["plugins.security.nodes_dn"] == f'["{pki.NODE_DN}"]'
        assert lines["plugins.security.compliance.salt"] == found.salt_file.read_text().strip()
        for name in ("ca.pem", "node.pem", "node-key.pem"):  # the same CA and node certificate on every node
            assert (config / "certs" / name).read_bytes() == (found.folder / name).read_bytes()
        users = json.loads((config / "opensearch-security" / "internal_users.yml").read_text())
        # one admin password for the cluster (and the single node): each node's file checks it
        assert bcrypt.checkpw(found.admin_password().encode(), users["admin"]["hash"].encode())
    node = pki.load_cert(found.folder / "node.pem")
    san = node.extensions.get_extension_for_class(pki.x509.SubjectAlternativeName).value
    assert {str(v) for v in san.get_values_for_type(pki.x509.DNSName)} == {"localhost"}
    assert node.subject.rfc4514_string() == pki.NODE_DN
    # the Store trusts the local CA and uses the admin password for these nodes, and only for them
    spec_state = cluster.ClusterState(spec.name, settings.node_version, members)
    cluster._write_state(spec.root, spec_state)
    assert cluster.known_urls(settings) == {m.url for m in members}


def test_a_restart_reuses_the_ports_of_the_nodes_that_are_down(tmp_path):
    settings = _settings(tmp_path)
    spec = cluster.ClusterSpec.local(settings, 3)
    first, _ = cluster._plan_members(settings, spec, {})
    known = {m.name: m for m in first}  # pids 0: none of them runs
    again, to_start = cluster._plan_members(settings, spec, known)
    assert [(m.http_port, m.transport_port) for m in again] == [(m.http_port, m.transport_port) for m in first]
    assert len(to_start) == 3


def test_the_store_trusts_the_local_ca_and_sends_the_admin_password_only_to_local_nodes(tmp_path):
    from legalsearch.security.secrets import ensure_secrets
    from legalsearch.store import connection

    settings = _settings(tmp_path)
    spec = cluster.ClusterSpec.local(settings, 3)
    members, _ = cluster._plan_members(settings, spec, {})
    spec.root.mkdir(parents=True)
    cluster._write_state(spec.root, cluster.ClusterState(spec.name, settings.node_version, members))
    found = ensure_secrets(settings)
    urls = ",".join(m.url + "/" for m in members)

    local = connection(settings, urls)
    assert local.url == ",".join(m.url for m in members)  # several hosts, trailing slashes dropped
    assert (local.user, local.password, local.ca_certs) == ("admin", found.admin_password(), found.pki.ca)
    # one URL that is not a node of this node home: no local password, no local CA for any of them
    foreign = connection(settings, urls + ",https://search.example.org:9200")
    assert (foreign.user, foreign.password, foreign.ca_certs) == (None, None, None)
    # credentials in a URL are moved out of it (and never printed)
    given = connection(settings, "https://bob:s3cret@search.example.org:9200,https://search2.example.org:9200")
    assert given.url == "https://search.example.org:9200,https://search2.example.org:9200"
    assert (given.user, given.password) == ("bob", "s3cret")
