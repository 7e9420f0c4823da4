"""Sentence embeddings: one interface, three backends (torch, onnx, onnx-int8).

``base`` holds the interface and the backend names; ``torch_backend`` runs the
sentence-transformers model; ``onnx_backend`` runs an ONNX export of the same model on plain
onnxruntime with the ``tokenizers`` tokenizer (no torch import); ``export`` writes that export
(and its int8 variant) to the model cache; ``agreement`` measures how far a backend's retrieval
agrees with torch's. Pick one with :func:`repro_assets.storage.embedder.get_embedder`.
"""
