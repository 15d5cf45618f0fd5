"""The engine's API for the rule families and the pipeline: the Engine that walks each compiled
function once and hands its nodes to the families, findings, suppressions and the result cache,
with the scheduling around them (processes, slices, deep stacks, the collector)."""
