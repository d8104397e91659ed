"""What an OpenSearch error means and what to do next: the messages `search.store.opensearch`
puts into `search.errors`. Pure functions of an opensearch-py error's fields (`status_code`,
`info`, `error`), so this module never imports opensearch-py itself.
"""

from __future__ import annotations

import re

EXISTS = ("resource_already_exists_exception", "index_already_exists_exception")


def error_type(e) -> str | None:
    info = e.info
    if isinstance(info, dict) and isinstance(info.get("error"), dict):
        return info["error"].get("type")
    return None


def reason(e) -> str:
    info = e.info
    if isinstance(info, dict):
        err = info.get("error")
        if isinstance(err, dict):
            root = (err.get("root_cause") or [err])[0]
            return f"{root.get('type')}: {root.get('reason')}"
        # the security REST API answers {"status": ..., "message" | "reason": ...}
        return str(err or info.get("message") or info.get("reason") or info)
    return str(info or e.error)


# What the engine-side embedding answers when it fails (docs/engine.md), and what to do next.
MODEL_HINTS = (
    ("Connection refused", "The embedding server that OpenSearch calls to embed the question is not running: "
                           "`legalsearch node start` starts it with the node (`legalsearch node status` shows it)"),
    ("Read timed out", "The embedding server did not answer in time (busy or stuck): read its log under the node "
                       "home, or restart it with `legalsearch node stop && legalsearch node start`"),
    ("Error communicating with remote model", "OpenSearch cannot reach the embedding server: "
                                              "`legalsearch node status` shows it"),
    ("context_length_exceeded", "The question is longer than the embedding model's window: shorten it"),
    ("request_too_large", "The text is over the embedding server's limits: shorten it"),
    ("Failed to find model", "That model id is not registered on this cluster (deleted, or installed elsewhere): "
                             "`legalsearch pipelines install --index NAME` registers the index's models again"),
    ("Model not ready yet", "The embedding model is not deployed: `legalsearch pipelines install` deploys it"),
    ("modelId is marked non-null", "A `neural` query without model_id takes it from the index's default search "
                                   "pipeline, which this index lacks: `legalsearch pipelines install --index NAME`"),
    ("Error from remote service", "The embedding server refused the text (its message is above)"),
)


def model_hint(text: str) -> str:
    return next((hint for needle, hint in MODEL_HINTS if needle in text), "")


def hint(e) -> str:
    text = str(e.info)
    if model_hint(text):
        return ". " + model_hint(text)
    if "number of weights" in text and "must match number of sub-queries" in text:
        return (". A hybrid query needs a fusion pipeline with one weight per sub-query: the stored template "
                "`legalsearch-hybrid` always sends three, or name a pipeline with ?search_pipeline=")
    if e.status_code == 503 and "Security not initialized" in text:
        return ". The security plugin is still starting: wait a few seconds and try again"
    if "hybrid query must be a top level query" in text:
        return (". The user is restricted by document-level security, and on OpenSearch 2.19 a hybrid query "
                "cannot run under it (neural-search #1303): search as the end user through the service account "
                "(`legalsearch search --user NAME`, see docs/security.md), or use --mode bm25 / knn with --routing off")
    return ""


URL_CREDENTIALS = re.compile(r"(?<=//)[^/@\s]+@")


def strip_url_secrets(text) -> str:
    return URL_CREDENTIALS.sub("", str(text))


def tls_hint(e) -> str:
    text = strip_url_secrets(e.info or e)
    if "unable to get local issuer" in text or "self-signed" in text or "self signed" in text:
        hint = ("the server's certificate is not signed by a CA this client trusts: set OPENSEARCH_CA_CERTS to the "
                "cluster's CA certificate (PEM); the local node's is found alone")
    elif "expired" in text:
        hint = ("the server's certificate has expired: renew it (the local node reissues its certificates on "
                "`legalsearch node stop && legalsearch node start`)")
    elif "mismatch" in text or "not valid for" in text or "hostname" in text.lower():
        hint = "the certificate was issued for another host name: connect with a host name it names"
    elif "alert" in text:
        hint = "the node refused this client's certificate (expired or not signed by the node's CA)"
    else:
        hint = "check OPENSEARCH_CA_CERTS and the node's certificate"
    return f"{text}. {hint}"
