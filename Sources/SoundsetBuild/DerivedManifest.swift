import Foundation
import SoundsetRuntime
import SoundsetSetFolder

extension BuildPipeline {
    /// The manifest this build makes of the recordings and settings in `assets` (`derive`, the
    /// build's own code) for the set in `output` (resolved), asking the memo beside it read only:
    /// a set the memo knows is derived without finishing a clip; a set it does not know is
    /// prepared and finished again, in memory. Writes nothing: the check's.
    /// - Throws: `BuildFailure` with what keeps the recordings from being prepared; what the
    ///   stages throw.
    package static func derivedManifest(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, jobs: Int) async throws -> Manifest {
        let memo = ReadOnlyMemo(base: DiskMemo(output: output))
        let catalog = try await AssetCatalog.load(assets: assets, displayName: assetsDisplay, jobs: jobs)
        let hashed = try await HashStage.run(catalog.recordings, memo: memo, clockFolder: nil, jobs: jobs)
        let prepared = try await PrepareStage.run(hashed, configuration: catalog.configuration, memo: memo, jobs: jobs, progress: nil)
        let problems = catalog.problems + hashed.problems + prepared.problems
        guard problems.isEmpty else { throw BuildFailure(problems) }
        let options = BuildOptions(
            assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, jobs: jobs, useCache: true, progress: nil,
            waitForOtherBuilds: true, waiting: { _ in }, writeReport: false)
        return try await derive(
            prepared, copies: catalog.copies, configuration: catalog.configuration, memo: memo, scratch: nil, options: options
        ).2.manifest
    }
}
