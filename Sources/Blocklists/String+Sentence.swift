extension String {
  /// The text as the end of a sentence: a full stop added unless it ends with one already (a system
  /// message such as "You don’t have permission." read "permission.." after a second one), and
  /// Foundation's empty "The operation could not be completed." opening dropped.
  package var sentence: String {
    var text = self
    let empty = "The operation could not be completed. "
    if text.hasPrefix(empty) && text.count > empty.count { text.removeFirst(empty.count) }
    return text.hasSuffix(".") || text.hasSuffix("!") || text.hasSuffix("?") ? text : text + "."
  }
}
