/// A reply that ends a request early, carried through `Result`.
struct PiholeError: Error {
  var reply: PiholeReply

  init(_ reply: PiholeReply) { self.reply = reply }
}
