// The runtime's test helpers (temporary folders, fake sets) are every test target's helpers too.
@_exported import SoundsetRuntimeTestSupport
