// Package mathbound is the Metal Shading Language's floating-point accuracy
// tables written down once: for each math function and table, the bound the
// specification states, citing the table and row it comes from, and the
// means to judge one result against it (Judge) — the exact value computed in
// float64, a distance in ulps of it, and whether that distance is within the
// row's bound at those arguments.
//
// Source. MSL §8.4 "ULPs and Relative Error" (Metal Shading Language
// Specification 4 and 4.1; numbered §7.4 with Tables 7.1–7.3 in 2.x/3.x and
// Tables 36–38 in the 2017 2.0 edition): Table 8.1, single precision with
// fast math off; Table 8.2, single precision with fast math on (the
// default); Table 8.3, half precision; Tables 8.4 and 8.5, bfloat (which list
// only + − × and division, so no math function has a bfloat bound). Every row
// below was checked, on 2026-12-02, against two independent transcriptions of
// §8 kept in the code index (one an extraction of the whole chapter, one a
// quotation of Tables 8.1 and 8.2 from MSL 4 and 4.1 with page numbers:
// 4.1 pp. 368–375); the half rows also against the 2017 edition's Table 38
// (p. 165). Where the two transcriptions and the earlier recalled bounds
// differed, the transcriptions were taken (the README's opcheck section lists
// what changed).
//
// The kinds of row (Kind): a fixed ULP count ("<= 4 ulp"; "correctly
// rounded" is 0.5 ulp; "0 ulp" is Exact), an ULP count or absolute error that
// depends on the argument (fast exp's 3 + floor(|2x|), fast sin's 2^-13 on
// [-pi, pi] "and larger otherwise", fast log's pieces), "Undefined" (fast
// fmod), and "Implemented as" a composition of other rows (fast pow as
// exp2(y*log2(x)), fast sqrt as x*rsqrt(x)...), which bounds nothing by
// itself: Interval composes the rows it names step by step — each step's
// result is any value of the format within that step's bound of the exact
// step on the previous steps' possible values, a correctly rounded step
// being either neighbour (§8.2 allows round toward zero as well as ties to
// even) — and a result is within the row when it lies in the interval so
// obtained.
//
// What a table leaves undefined is not judged (Verdict.Undefined): with fast
// math a NaN or infinite argument, result or intermediate (§8.1); arguments
// outside a row's stated domain (fast sin beyond [-pi, pi] is "larger
// otherwise": no bound). §8.5: a denormal argument or result may be flushed
// to zero, a zero so produced of either sign.
//
// Readings that are choices, said here: ulp(x) is the spacing of the format
// in the binade of |x| (at least the denormals' spacing); the MSL definition
// is ambiguous at a representable x (the wider or the narrower neighbouring
// gap), and this reading takes the gap above, which is the wider at a power of
// two. The constants of a composition (log2(10) in exp10, log10(2) in log10,
// M_PI_F in atan2) are taken as either the exact value or its float
// rounding, the interval covering both.
package mathbound
