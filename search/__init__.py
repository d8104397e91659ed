"""legalsearch: a legal retrieval backend on OpenSearch (hybrid BM25 + k-NN, fused by RRF)."""

__version__ = "0.1.0"
