; A construct the reader refuses by name: invoke (airpipe fixture).
define void @f() personality ptr @p {
  invoke void @g() to label %ok unwind label %bad
ok:
  ret void
bad:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
declare void @g()
declare i32 @p(...)
