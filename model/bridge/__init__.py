"""Contract bridge (``../shared/spec/bridge.md``): rubber, duplicate and Chicago."""
