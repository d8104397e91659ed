"""Document summarizers for Summary-Augmented Chunking (SAC).

The public names live in `search.indexing.summaries`; the modules here hold the pieces:
`base` (protocol, length control, opening text), `parties` (party names), `facts` (type,
date, governing law), `entities`
(spaCy NER, privacy-policy owner), `topics` (title, privacy coverage, salient terms),
`extractive` ("opening", "centroid"), `fingerprint` ("fingerprint", "title-fingerprint"),
`llm` (OpenAI-compatible endpoint) and `cache` (summaries keyed by document hash).
"""
