// swift-tools-version:6.0
import PackageDescription
import Foundation

// Pixel loops are ~2× faster with AVX2. Swift has no runtime CPU dispatch, so the
// kernels are built for the CPU that builds them (like `-march=native`) when it has
// AVX2, and for the portable x86-64 baseline otherwise.
let hostHasAVX2: Bool = {
    #if arch(x86_64) && os(Linux)
    guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
    return cpuinfo.contains(" avx2")
    #else
    return false
    #endif
}()
let cpuFlags: [SwiftSetting] = hostHasAVX2
    ? [.unsafeFlags(["-Xcc", "-march=haswell"])]
    : []
let cpuCFlags: [CSetting] = hostHasAVX2 ? [.unsafeFlags(["-march=haswell"])] : []

// The system libraries' header paths and libraries, from pkg-config, without the
// `-pthread` that glib-2.0.pc and orc-0.4.pc put in their Cflags: SwiftPM's own
// `pkgConfig:` reading warns "prohibited flag(s): -pthread" for it once per target on
// every build, so the system library targets name no pkg-config package and the targets
// that use them get these `-I` flags and libraries instead.
func pkgConfig(_ option: String, _ packages: [String]) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", option] + packages
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { missingSystemPackages(packages, "pkg-config is not installed") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { missingSystemPackages(packages, "pkg-config cannot find them") }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
}
/// Stops the manifest with what to do. An empty answer would be worse: SwiftPM caches an
/// evaluated manifest outside `.build` (keyed on this file, not on the system), so a build
/// after the packages are installed would keep failing on `gst/gst.h` until this file changed.
func missingSystemPackages(_ packages: [String], _ reason: String) -> Never {
    let message = "FilterCam needs the system libraries \(packages.joined(separator: ", ")) (\(reason)).\n"
        + "Run `make deps` (it installs them with apt-get; the Makefile lists each package), then build again.\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(1)
}
func includeFlags(_ packages: [String]) -> [String] { pkgConfig("--cflags-only-I", packages) }
/// The libraries to link for C targets that include the headers (Swift imports link what
/// the module maps name).
func libraries(_ packages: [String]) -> [LinkerSetting] {
    pkgConfig("--libs-only-l", packages).map { .linkedLibrary(String($0.dropFirst(2))) }
}
let gstreamer = ["gstreamer-1.0", "gstreamer-app-1.0", "gstreamer-video-1.0"], rtsp = ["gstreamer-rtsp-server-1.0"]
let web = ["libsoup-3.0", "gstreamer-webrtc-1.0", "gstreamer-sdp-1.0", "nice"]
let windowTitle = ["gstreamer-gl-1.0", "x11"]
let gstreamerIncludes = includeFlags(gstreamer), rtspIncludes = includeFlags(rtsp)
let systemIncludes: [String] = {
    var seen = Set<String>()
    return (gstreamerIncludes + includeFlags(["pangocairo"]) + rtspIncludes).filter { seen.insert($0).inserted }
}()
/// For Swift targets that import the system libraries, directly or through a module that does.
let systemHeaders: [SwiftSetting] = [.unsafeFlags(systemIncludes.flatMap { ["-Xcc", $0] })]

let package = Package(
    name: "FilterCam",
    products: [
        .executable(name: "filtercam", targets: ["filtercam"]),
        .library(name: "FilterCore", targets: ["FilterCore"]),
        .library(name: "FilterCamHost", targets: ["FilterCamHost"]),
        .library(name: "FilterCamTool", targets: ["FilterCamTool"]),
        // Loadable GStreamer plugin: libgstfiltercam.so, found through GST_PLUGIN_PATH.
        .library(name: "gstfiltercam", type: .dynamic, targets: ["FilterCamPlugin"]),
        // OpenCV's face detector, libfiltercamfaces.so: the elements load it from beside
        // their own file on the first face search (OpenCV takes ~45 ms to link), so it
        // is built and installed with the plugin but not linked into it.
        .library(name: "filtercamfaces", type: .dynamic, targets: ["CFaceDetect"]),
        // The worked example of a filter written against the public API (README: "Write your own filter").
        .executable(name: "pixelate-demo", targets: ["pixelate-demo"]),
        // Coverage-guided fuzz targets; scripts/fuzz.sh builds them for libFuzzer.
        .executable(name: "filtercam-fuzz", targets: ["filtercam-fuzz"]),
        .library(name: "gstpixelate", type: .dynamic, targets: ["PixelatePlugin"]),
    ],
    targets: [
        // Swift (and the C headers of CPixelGather): frames, filters, geometry. No GStreamer import.
        .target(name: "FilterCore", dependencies: ["CPixelGather"], swiftSettings: cpuFlags),
        // AVX2 gathers for FilterCore's table lookups (headers: Swift cannot call the intrinsic's macro),
        // SSE2 transposes for its plane turns. A C target, not a system library, so that an edit
        // of a header rebuilds FilterCore.
        .target(name: "CPixelGather", cSettings: cpuCFlags),
        .systemLibrary(
            name: "CGStreamer",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // Text for the preview's on-screen display and PNG looks (Debian libpango1.0-dev,
        // libcairo2-dev): Pango and Cairo loaded on first use, not linked.
        .target(name: "CPangoCairo", cSettings: [.unsafeFlags(includeFlags(["pangocairo"]))]),
        // The GObject boilerplate and the macros Swift cannot call.
        // Messages name shim.c relative to the package, not the build machine's path.
        .target(name: "CFilterCamShim", dependencies: ["CGStreamer"],
                cSettings: [.unsafeFlags(["-fmacro-prefix-map=\(Context.packageDirectory)/="] + gstreamerIncludes)],
                linkerSettings: libraries(gstreamer)),
        // OpenCV's CascadeClassifier behind a C API (Debian packages; there is no opencv4.pc):
        // the library libfiltercamfaces.so. Its header is CFaceDetectAPI, which links nothing.
        .systemLibrary(name: "CFaceDetectAPI"),
        .target(name: "CFaceDetect",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: [.linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]),
        .target(name: "FilterCamHost", dependencies: ["FilterCore", "CGStreamer", "CFilterCamShim", "CFaceDetectAPI", "CPangoCairo"],
                swiftSettings: systemHeaders),
        // GStreamer's RTSP server for `filtercam serve` (Debian libgstrtspserver-1.0-dev),
        // behind a plain C API (CRTSPServe) whose header names no GStreamer type.
        .systemLibrary(
            name: "CGstRTSPServer",
            providers: [.apt(["libgstrtspserver-1.0-dev"])]
        ),
        .target(name: "CRTSPServe", dependencies: ["CGstRTSPServer"], cSettings: [.unsafeFlags(includeFlags(rtsp + gstreamer))],
                linkerSettings: libraries(rtsp + gstreamer) + [.linkedLibrary("gio-2.0"), .linkedLibrary("gstrtsp-1.0")]),
        // The web side of `filtercam serve --web`: libsoup 3 (Debian libsoup-3.0-dev) for HTTP,
        // webrtcbin (libgstreamer-plugins-bad1.0-dev) and libnice (libnice-dev) for WebRTC,
        // behind a plain C API (CWebServe) like CRTSPServe's.
        .systemLibrary(
            name: "CLibSoup",
            providers: [.apt(["libsoup-3.0-dev", "libgstreamer-plugins-bad1.0-dev", "libnice-dev"])]
        ),
        .target(name: "CWebServe", dependencies: ["CLibSoup", "CRTSPServe"], cSettings: [.unsafeFlags(includeFlags(web + gstreamer))],
                linkerSettings: libraries(web + gstreamer)),
        // The preview window's title (Xlib and GStreamer's GL library: Debian libx11-dev and
        // libgstreamer-plugins-base1.0-dev), for the CLI only, not the loadable plugin.
        .target(name: "CWindowTitle", cSettings: [.unsafeFlags(includeFlags(windowTitle))],
                linkerSettings: libraries(windowTitle)),
        // A lost X server ends the app as a closed window does instead of Xlib's exit(1)
        // (Xlib: Debian libx11-dev), for the CLI only: it replaces XOpenDisplay process-wide.
        .target(name: "CDisplayLoss", linkerSettings: libraries(["x11"]) + [.linkedLibrary("dl")]),
        // The command-line tool's support: sessions, live commands, pipeline files, inspect,
        // messages, the benchmark, the RTSP and web servers. Not in the loadable plugin.
        .target(name: "FilterCamTool", dependencies: ["FilterCamHost", "FilterCore", "CGStreamer", "CFilterCamShim", "CRTSPServe", "CWebServe",
                                                      "CWindowTitle", "CDisplayLoss"],
                // The control page, built into the binary (no files to install beside it).
                resources: [.embedInCode("Web/page.html"), .embedInCode("Web/page.js")],
                swiftSettings: systemHeaders),
        // The loadable plugin: the elements only.
        .target(name: "FilterCamPlugin", dependencies: ["FilterCamHost", "CGStreamer"], swiftSettings: systemHeaders),
        .executableTarget(name: "filtercam", dependencies: ["FilterCamTool", "FilterCamHost", "FilterCore", "CGStreamer", "CFilterCamShim"],
                          swiftSettings: systemHeaders),
        .executableTarget(name: "filtercam-fuzz", dependencies: ["FilterCamTool", "FilterCamHost", "FilterCore", "CGStreamer"],
                          swiftSettings: systemHeaders),
        .target(name: "PixelateExample", dependencies: ["FilterCore"], path: "Examples/PixelateFilter"),
        .executableTarget(name: "pixelate-demo", dependencies: ["PixelateExample", "FilterCamTool", "FilterCamHost", "FilterCore"], path: "Examples/pixelate-demo",
                          swiftSettings: systemHeaders),
        .target(name: "PixelatePlugin", dependencies: ["PixelateExample", "FilterCamHost"], path: "Examples/PixelatePlugin",
                swiftSettings: systemHeaders),
        .testTarget(name: "FilterCoreTests", dependencies: ["FilterCore"]),
        // Helpers both GStreamer test targets share (binaries, processes, in-process pipelines).
        .target(name: "FilterCamTestSupport", dependencies: ["FilterCamTool", "FilterCamHost", "FilterCore", "CGStreamer", "CFilterCamShim"],
                path: "Tests/FilterCamTestSupport", swiftSettings: systemHeaders),
        // The elements: properties, frames, events, through pipelines and GstHarness.
        .testTarget(name: "FilterCamHostTests", dependencies: ["FilterCamHost", "FilterCamTool", "FilterCore", "CGStreamer", "CFilterCamShim", "PixelateExample",
                                                               "FilterCamTestSupport"],
                    exclude: ["Fixtures"], swiftSettings: systemHeaders,
                    // GstHarness (HarnessTests), declared by CGStreamer's shim.h (Debian libgstreamer1.0-dev).
                    linkerSettings: [.linkedLibrary("gstcheck-1.0")]),
        // The command-line tool: the `filtercam` program, pipeline files, messages.
        .testTarget(name: "FilterCamToolTests", dependencies: ["FilterCamTool", "FilterCamHost", "FilterCore", "CGStreamer", "FilterCamTestSupport"],
                    swiftSettings: systemHeaders),
    ],
    swiftLanguageModes: [.v6]
)
