import Foundation
import SoundsetCLI

exit(await SoundsetCommandLine.run(Array(CommandLine.arguments.dropFirst()), exitAtOnce: { _exit($0) }))
