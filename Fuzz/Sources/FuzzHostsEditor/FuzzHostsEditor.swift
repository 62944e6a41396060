/// Edits the managed section of a hosts file made of the input bytes.
///
/// The properties ManagedSection documents: the bytes outside the section are kept; for a file without a
/// section `remove(apply(x)) == x`; `apply(apply(x)) == apply(x)`; the section read back is the one
/// written; a file whose markers are broken throws a `Problem` and never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let file = Array(UnsafeBufferPointer(start: data, count: size))
  let body = ["0.0.0.0 ads.example", "0.0.0.0 tracker.example", ""]

  let location: ManagedSection.Location?
  do {
    location = try ManagedSection.locate(in: file)
  } catch {
    // Broken markers: every operation must refuse the file the same way.
    expect(error) { () throws(ManagedSection.Problem) in _ = try ManagedSection.apply(body, to: file) }
    expect(error) { () throws(ManagedSection.Problem) in _ = try ManagedSection.remove(from: file) }
    expect(error) { () throws(ManagedSection.Problem) in _ = try ManagedSection.lines(in: file) }
    return 0
  }

  do throws(ManagedSection.Problem) {
    let applied = try ManagedSection.apply(body, to: file)
    guard let section = try ManagedSection.locate(in: applied) else { fatalError("apply wrote no section") }
    let lines = try ManagedSection.lines(in: applied)
    check(lines == body, "lines(apply(x)) = \(lines ?? []), not what was written")
    let removed = try ManagedSection.remove(from: applied)
    let left = try ManagedSection.locate(in: removed)
    check(left == nil, "remove left a section")
    if let location {
      // An existing section is replaced where it stands: the bytes around it are unchanged.
      check(
        applied[..<section.range.lowerBound].elementsEqual(file[..<location.range.lowerBound]),
        "apply changed the bytes before the section")
      check(
        applied[section.range.upperBound...].elementsEqual(file[location.range.upperBound...]),
        "apply changed the bytes after the section")
      let removedOriginal = try ManagedSection.remove(from: file)
      check(removed == removedOriginal, "remove(apply(x)) != remove(x)")
    } else {
      check(removed == file, "remove(apply(x)) != x for a file without a section")
      check(applied.starts(with: file), "apply changed the bytes before the new section")
    }
    let twice = try ManagedSection.apply(body, to: applied)
    check(twice == applied, "apply(apply(x)) != apply(x)")
    let emptied = try ManagedSection.apply([], to: applied)
    let emptyLines = try ManagedSection.lines(in: emptied)
    check(emptyLines == [], "an empty section reads back lines")
    let removedEmpty = try ManagedSection.remove(from: emptied)
    check(removedEmpty == removed, "remove depends on the section's body")
  } catch {
    fatalError("a file whose markers locate() accepts was refused: \(error)")
  }
  return 0
}

/// Traps unless `operation` throws `problem`.
private func expect(_ problem: ManagedSection.Problem, _ operation: () throws(ManagedSection.Problem) -> Void) {
  do {
    try operation()
    fatalError("locate threw \(problem) but another operation accepted the file")
  } catch {
    check(error == problem, "locate threw \(problem), another operation \(error)")
  }
}

/// Traps with the message when the condition fails; unlike `precondition`, the message is kept in
/// release builds, so libFuzzer's crash report says which property broke.
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
