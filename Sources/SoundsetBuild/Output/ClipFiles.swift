import SoundsetFindings
import SoundsetSetFolder

/// The names of a clip's files in the set's `Sounds`.
enum ClipFiles {
    static func fileName(_ name: String, _ configuration: Configuration) -> String {
        "\(name).\(configuration.container.fileExtension)"
    }

    static func copyName(_ name: String, _ configuration: Configuration) -> String {
        "\(name)\(ClipName.copySuffix).\(configuration.container.fileExtension)"
    }
}
