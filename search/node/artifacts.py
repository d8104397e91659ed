"""Maven Central artifacts that make up a local OpenSearch node, and how to fetch them.

OpenSearch publishes every piece a node needs to Maven Central: the core as an integ-test zip
(lib/, config/, bin/ and only the transport module), plugins as zips, and core modules such as
lang-painless and analysis-common as plain jars (assembled into modules/ by `assemble.py`).
Downloads go through `mvn dependency:get` into ~/.m2 (cached across runs); without mvn they are
fetched over HTTPS into the same layout.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from legalsearch.errors import NodeError

log = logging.getLogger(__name__)

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"


@dataclass(frozen=True)
class Artifact:
    group: str
    name: str
    version: str
    packaging: str = "jar"

    @property
    def coordinates(self) -> str:
        return f"{self.group}:{self.name}:{self.version}:{self.packaging}"

    def relative_path(self) -> str:
        return f"{self.group.replace('.', '/')}/{self.name}/{self.version}/{self.name}-{self.version}.{self.packaging}"


@dataclass(frozen=True)
class NodeArtifacts:
    """Everything one OpenSearch version needs. Plugins carry a fourth version digit."""

    core: Artifact
    plugins: dict[str, Artifact]  # install folder name -> zip
    modules: dict[str, Artifact]  # module folder name -> main jar (runtime deps read from its pom)


# Module descriptors: the jars on Maven carry no plugin-descriptor.properties, so these are
# written at assembly time. extended.plugins mirrors the official distribution.
MODULE_DESCRIPTORS = {
    "lang-painless": {
        "description": "An easy, safe and fast scripting language for OpenSearch",
        "classname": "org.opensearch.painless.PainlessPlugin",
        "extended.plugins": "",
        # Painless generates classes at run time and looks up whitelisted classes' loaders.
        "policy": [
            'permission java.lang.RuntimePermission "createClassLoader";',
            'permission java.lang.RuntimePermission "getClassLoader";',
        ],
    },
    "analysis-common": {
        "description": 'Adds "built in" analyzers to OpenSearch.',
        "classname": "org.opensearch.analysis.common.CommonAnalysisPlugin",
        "extended.plugins": "lang-painless",
        "policy": [],
    },
    # Stored search templates (`legalsearch-hybrid`, docs/engine.md). Maven serves this module
    # only as the "client" jar, which holds the whole module (MustachePlugin included); its pom
    # brings com.github.spullara.mustache.java:compiler.
    "lang-mustache": {
        "description": "Mustache scripting integration for OpenSearch",
        "classname": "org.opensearch.script.mustache.MustachePlugin",
        "extended.plugins": "",
        "policy": ['permission java.lang.RuntimePermission "accessDeclaredMembers";'],  # as upstream
    },
}

# Entries of plugin zips left out at assembly: only LOCAL (in-node) models use them, and the node
# runs REMOTE models only (our embedding server, search/embedserver/). onnxruntime_gpu is 291 of the ml
# plugin's 355 MB unpacked; without it the node starts and remote models deploy and predict.
PRUNED = {"opensearch-ml": ("onnxruntime_gpu-",)}


def node_artifacts(version: str) -> NodeArtifacts:
    plugin_version = f"{version}.0"
    return NodeArtifacts(
        core=Artifact("org.opensearch.distribution.integ-test-zip", "opensearch", version, "zip"),
        plugins={
            "opensearch-knn": Artifact("org.opensearch.plugin", "opensearch-knn", plugin_version, "zip"),
            # Published as "neural-search" (not "opensearch-neural-search", the plugin's own name).
            "opensearch-neural-search": Artifact("org.opensearch.plugin", "neural-search", plugin_version, "zip"),
            # TLS, users, roles and document-level security (search/security/plugin.py configures it).
            "opensearch-security": Artifact("org.opensearch.plugin", "opensearch-security", plugin_version, "zip"),
            # ml-commons (remote embedding models for `neural` queries and the text_embedding
            # ingest processor) and the job scheduler it extends (docs/engine.md).
            "opensearch-job-scheduler": Artifact("org.opensearch.plugin", "opensearch-job-scheduler", plugin_version,
                                                 "zip"),
            "opensearch-ml": Artifact("org.opensearch.plugin", "opensearch-ml-plugin", plugin_version, "zip"),
        },
        modules={
            "lang-painless": Artifact("org.opensearch.plugin", "lang-painless", version),
            "analysis-common": Artifact("org.opensearch.plugin", "analysis-common", version),
            "lang-mustache": Artifact("org.opensearch.plugin", "lang-mustache-client", version),
        },
    )


def fetch(artifact: Artifact, maven_repo: Path) -> Path:
    """Return the local path of `artifact`, downloading it into `maven_repo` if needed."""
    target = maven_repo / artifact.relative_path()
    if target.is_file() and target.stat().st_size > 0:
        return target
    mvn = shutil.which("mvn")
    if mvn:
        _fetch_with_maven(mvn, artifact, maven_repo)
    else:
        log.info("mvn not on PATH; downloading %s over HTTPS", artifact.coordinates)
        _fetch_over_https(artifact, target)
    if not target.is_file():
        raise NodeError(
            f"{artifact.coordinates} was downloaded but {target} is missing; "
            "check that mvn uses the local repository at {maven_repo}"
        )
    return target


def _fetch_with_maven(mvn: str, artifact: Artifact, maven_repo: Path) -> None:
    cmd = [
        mvn, "-q", "-B", "dependency:get",
        f"-Dartifact={artifact.coordinates}",
        "-Dtransitive=false",
        f"-Dmaven.repo.local={maven_repo}",
    ]
    log.info("fetching %s", artifact.coordinates)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        detail = "\n".join(line for line in proc.stdout.splitlines() if "ERROR" in line)[:1500]
        raise NodeError(
            f"Maven Central did not serve {artifact.coordinates}.\n{detail}\n"
            "Check network access to Maven Central, or pick another version with LEGALSEARCH_NODE_VERSION."
        )


def _fetch_over_https(artifact: Artifact, target: Path) -> None:
    url = f"{MAVEN_CENTRAL}/{artifact.relative_path()}"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    try:
        with urllib.request.urlopen(url, timeout=300) as response, partial.open("wb") as out:
            shutil.copyfileobj(response, out)
    except urllib.error.HTTPError as e:
        partial.unlink(missing_ok=True)
        raise NodeError(f"Maven Central did not serve {artifact.coordinates} ({url}: HTTP {e.code})") from e
    except OSError as e:
        partial.unlink(missing_ok=True)
        raise NodeError(
            f"could not download {url}: {e}. Install Maven (apt-get install maven) or check the network."
        ) from e
    partial.rename(target)


_POM_NS = re.compile(r"^\{[^}]*\}")


def runtime_dependencies(pom_path: Path) -> list[Artifact]:
    """Compile/runtime dependencies declared in a pom (what a module jar needs beside it)."""
    root = ElementTree.parse(pom_path).getroot()
    for element in root.iter():
        element.tag = _POM_NS.sub("", element.tag)
    deps = []
    for dep in root.findall("./dependencies/dependency"):
        scope = dep.findtext("scope", "compile")
        optional = dep.findtext("optional", "false") == "true"
        if scope not in ("compile", "runtime") or optional:
            continue
        deps.append(Artifact(dep.findtext("groupId"), dep.findtext("artifactId"), dep.findtext("version")))
    return deps


def fetch_module(artifact: Artifact, maven_repo: Path) -> list[Path]:
    """The module's jar plus the jars its pom lists as runtime dependencies."""
    pom = fetch(Artifact(artifact.group, artifact.name, artifact.version, "pom"), maven_repo)
    jars = [fetch(artifact, maven_repo)]
    jars += [fetch(dep, maven_repo) for dep in runtime_dependencies(pom)]
    return jars
