"""Every sensor and schedule, one module per workflow, each exposing ``defs``."""
