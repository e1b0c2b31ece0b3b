/// The soundset release number, recorded in every manifest.
///
/// Bump it whenever a change alters what the build writes, so `soundset check` sees Output built by an
/// older release as stale.
public enum ToolVersion {
    public static let current = "0.12.0"
}
