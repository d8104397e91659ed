"""Assembling a real OpenSearch distribution from Maven Central artifacts, without Docker.

`install` fetches (cached in ~/.m2) the core integ-test zip, the plugins and the jars of the
modules the core zip lacks, then assembles `node_home/dist/opensearch-<version>/` in a staging
folder that replaces the old one only when complete. `search.node.process` runs it.
"""

from __future__ import annotations

import logging
import shutil
import zipfile
from pathlib import Path

from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node.artifacts import MODULE_DESCRIPTORS, PRUNED, fetch, fetch_module, node_artifacts

log = logging.getLogger(__name__)

JAVA_CANDIDATES = (
    "/usr/lib/jvm/java-17-openjdk-amd64",
    "/usr/lib/jvm/java-17-openjdk-arm64",
    "/usr/lib/jvm/temurin-17-jdk-amd64",
    "/usr/lib/jvm/java-21-openjdk-amd64",
)


def dist_dir(settings: Settings) -> Path:
    return settings.node_home / "dist" / f"opensearch-{settings.node_version}"


def is_installed(settings: Settings) -> bool:
    """Assembled, with every plugin this version of legalsearch needs (a node assembled before
    a plugin was added is re-assembled; its data lives outside dist/ and is kept)."""
    target = dist_dir(settings)
    wanted = node_artifacts(settings.node_version)
    folders = [target / "plugins" / name for name in wanted.plugins] + [target / "modules" / name
                                                                         for name in wanted.modules]
    return (target / ".legalsearch-installed").is_file() and all(
        (folder / "plugin-descriptor.properties").is_file() for folder in folders)


def install(settings: Settings, force: bool = False) -> Path:
    """Assemble the distribution under node_home/dist. Idempotent; `force` re-assembles."""
    target = dist_dir(settings)
    if is_installed(settings) and not force:
        log.info("already installed at %s", target)
        return target
    java_home(settings)  # fail early, before downloading 60 MB, when no suitable Java exists
    artifacts = node_artifacts(settings.node_version)
    core_zip = fetch(artifacts.core, settings.maven_repo)
    plugin_zips = {name: fetch(a, settings.maven_repo) for name, a in artifacts.plugins.items()}
    module_jars = {name: fetch_module(a, settings.maven_repo) for name, a in artifacts.modules.items()}

    staging = target.parent / (target.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    staging.parent.mkdir(parents=True, exist_ok=True)
    _unzip(core_zip, staging.parent / "unpack")
    shutil.move(str(staging.parent / "unpack" / f"opensearch-{settings.node_version}"), staging)
    shutil.rmtree(staging.parent / "unpack", ignore_errors=True)

    lib_jars = {p.name for p in (staging / "lib").glob("*.jar")}
    for name, jars in module_jars.items():
        _write_module(staging / "modules" / name, name, jars, lib_jars, settings.node_version)
    for name, zip_path in plugin_zips.items():
        _unzip(zip_path, staging / "plugins" / name, skip=PRUNED.get(name, ()))
        _check_plugin_version(staging / "plugins" / name, settings.node_version)
    (staging / ".legalsearch-installed").write_text(settings.node_version + "\n")

    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target


def _unzip(zip_path: Path, dest: Path, skip: tuple[str, ...] = ()) -> None:
    """Extract `zip_path` into `dest`, leaving out entries whose name starts with one of `skip`."""
    dest.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(dest, members=[m for m in z.namelist() if not m.startswith(skip)] if skip else None)
    # zipfile drops the executable bit: restore it for launch scripts and native helpers.
    for script in dest.rglob("*"):
        if script.is_file() and (script.parent.name == "bin" or script.suffix == ".sh"):
            script.chmod(0o755)


def _write_module(folder: Path, name: str, jars: list[Path], lib_jars: set[str], version: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for jar in jars:
        if jar.name in lib_jars:  # already on the core classpath: a second copy is jar hell
            continue
        shutil.copy2(jar, folder / jar.name)
    spec = MODULE_DESCRIPTORS[name]
    descriptor = {
        "description": spec["description"],
        "version": version,
        "name": name,
        "classname": spec["classname"],
        "java.version": "11",
        "opensearch.version": version,
        "extended.plugins": spec["extended.plugins"],
        "has.native.controller": "false",
    }
    (folder / "plugin-descriptor.properties").write_text("".join(f"{k}={v}\n" for k, v in descriptor.items()))
    if spec["policy"]:
        lines = "\n".join(f"  {p}" for p in spec["policy"])
        (folder / "plugin-security.policy").write_text(f"grant {{\n{lines}\n}};\n")


def _check_plugin_version(folder: Path, version: str) -> None:
    props = dict(
        line.split("=", 1)
        for line in (folder / "plugin-descriptor.properties").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    if props.get("opensearch.version") != version:
        raise NodeError(
            f"plugin {folder.name} was built for OpenSearch {props.get('opensearch.version')}, "
            f"not {version}: every piece must share one version"
        )


def java_home(settings: Settings) -> Path:
    """A Java 17+ runtime (OpenSearch 2.x relies on the SecurityManager, removed in JDK 24)."""
    candidates = [settings.java_home] if settings.java_home else []
    candidates += [Path(p) for p in JAVA_CANDIDATES]
    for candidate in candidates:
        if candidate and (candidate / "bin" / "java").exists():
            return candidate
    raise NodeError(
        "no Java 17 runtime found (looked in "
        + ", ".join(str(c) for c in candidates if c)
        + "). Install one (apt-get install openjdk-17-jre-headless) or set OPENSEARCH_JAVA_HOME."
    )
