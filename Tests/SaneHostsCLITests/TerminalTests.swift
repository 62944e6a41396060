import Foundation
import Testing

@testable import SaneHostsCLI

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Terminal facts")
struct TerminalTests {
  @Test("A width is always known, 80 columns when not a terminal")
  func width() {
    #expect(Terminal.width(.standardError) > 0)
  }

  @Test("A pipe is not interactive; a pseudo-terminal is, unless TERM is dumb")
  func interactive() throws {
    let pipe = Pipe()
    #expect(!Terminal.isInteractive(descriptor: pipe.fileHandleForWriting.fileDescriptor, environment: [:]))

    // A pseudo-terminal pair: unlock the master, then open the slave side by its number.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    defer { close(master) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    let (unlockRequest, numberRequest): (UInt, UInt) = (0x4004_5431, 0x8004_5430)  // TIOCSPTLCK, TIOCGPTN
    try #require(ioctl(master, unlockRequest, &unlock) == 0)
    try #require(ioctl(master, numberRequest, &number) == 0)
    let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    try #require(terminal >= 0)
    defer { close(terminal) }
    #expect(Terminal.isInteractive(descriptor: terminal, environment: ["TERM": "xterm"]))
    #expect(!Terminal.isInteractive(descriptor: terminal, environment: ["TERM": "dumb"]))
  }
}
