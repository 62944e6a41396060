import Files
import Foundation
import SystemExtras
import TestSupport
import Testing

@Suite("Staged files: replacing a file atomically")
struct StagedFileTests {
  @Test("The content is replaced; owner, group and mode are kept; no temporary file is left")
  func keepsOwnerAndMode() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("hosts").path
    try Data("127.0.0.1 localhost\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o640) == 0)
    let owner: uid_t = geteuid() == 0 ? 65534 : geteuid()  // as root, prove the owner is carried over
    #expect(chown(path, owner, getegid()) == 0)

    try StagedFile.replace(path, with: Array("new content\n".utf8))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new content\n")
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o640)
    #expect(status.st_uid == owner)
    #expect(directory.contents() == ["hosts"])
  }

  @Test("A new file gets the given mode")
  func newFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("new").path
    try StagedFile.replace(path, with: [], mode: 0o600)
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o600)
    #expect(status.st_size == 0)
  }

  @Test("A directory that does not exist is a failure naming the file")
  func missingDirectory() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("no/such/hosts").path
    #expect(throws: StagedFile.Failure.self) { try StagedFile.replace(path, with: [1]) }
    do {
      try StagedFile.replace(path, with: [1])
    } catch {
      #expect(error.path == path)
      #expect(error.detail.contains("No such file"))
    }
  }

  @Test("A device, pipe or directory is refused and left as it is")
  func notRegular() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.file("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: StagedFile.Failure.self) { try StagedFile.replace(fifo, with: [1]) }
    #expect(throws: StagedFile.Failure.self) { try StagedFile.replace(directory.url.path, with: [1]) }
    var status = stat()
    #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    #expect(directory.contents() == ["pipe"])
  }

  @Test("Abandoning a staged file leaves the target as it was and no temporary file")
  func abandon() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("hosts").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    let staged = try StagedFile(replacing: path)
    try Array("half of the new".utf8).withUnsafeBytes { try staged.append($0) }
    #expect(directory.contents().count == 2, "the temporary file sits beside the target")
    staged.abandon()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    #expect(directory.contents() == ["hosts"])
    #expect(StagedFile.isSpecial("/dev/null"))
    #expect(!StagedFile.isSpecial(path))
    #expect(!StagedFile.isSpecial(directory.url.path))
  }

  @Test("The original's SELinux label goes to the new file (security.selinux, set here without SELinux by root)")
  func securityLabel() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("hosts").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    let label = Array("system_u:object_r:net_conf_t:s0\0".utf8)
    guard setxattr(path, StagedFile.securityLabelAttribute, label, label.count, 0) == 0 else {
      // Only where the file system refuses security attributes altogether (not root, or no xattrs).
      #expect(geteuid() != 0, "root could not set security.selinux: \(String(cString: strerror(errno)))")
      return
    }
    try StagedFile.replace(path, with: Array("new\n".utf8))
    var buffer = [UInt8](repeating: 0, count: 256)
    let size = getxattr(path, StagedFile.securityLabelAttribute, &buffer, buffer.count)
    #expect(size == label.count)
    #expect(Array(buffer.prefix(max(0, size))) == label)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
  }

  @Test("An in-place rewrite keeps the inode and mode, and cuts off what was longer")
  func inPlace() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("hosts").path
    try Data("a much longer old content\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o640)
    var before = stat()
    stat(path, &before)
    try StagedFile.rewriteInPlace(path, with: Array("short\n".utf8))
    var after = stat()
    stat(path, &after)
    #expect(after.st_ino == before.st_ino)
    #expect(after.st_mode & 0o777 == 0o640)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "short\n")
    #expect(throws: StagedFile.Failure.self) {
      try StagedFile.rewriteInPlace(directory.file("missing").path, with: [1])
    }
  }

  @Test("Leftovers of a killed writer are removed; other files stay")
  func leftovers() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("hosts").path
    for name in ["hosts", ".hosts.sanehosts-AbC123", ".hosts.sanehosts-zz", ".other.sanehosts-AbC123", "notes"] {
      try Data("x".utf8).write(to: directory.file(name))
    }
    StagedFile.removeLeftovers(of: path)
    #expect(directory.contents() == [".hosts.sanehosts-zz", ".other.sanehosts-AbC123", "hosts", "notes"])
  }
}
