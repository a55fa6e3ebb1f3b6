// The Boardy engine re-exports the trace model it reports to, so `import Boardy` is enough to
// attach a recorder or read a trace.
@_exported import BoardyTrace
