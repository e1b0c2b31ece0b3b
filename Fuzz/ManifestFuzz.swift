import Foundation

// libFuzzer target: any bytes given to the manifest decoder either decode or throw, and a decoded
// manifest plans an amount without crashing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let manifest = try? Manifest.decode(bytes) {
        _ = try? Planner(manifest: manifest).plan(try! Amount("22222.22"))
        _ = try? manifest.encoded()
    }
    return 0
}
