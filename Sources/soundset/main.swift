import Foundation
import SoundsetCLI

// The one exit at once (a second Ctrl-C): no atexit handler runs under threads inside a C library.
exit(await SoundsetCommandLine.run(Array(CommandLine.arguments.dropFirst()), exitAtOnce: { _exit($0) }))
