package bitcode

// Printing a shufflevector's mask and extractvalue/insertvalue indices.

// shuffleMask prints ", <N x i32> mask": zeroinitializer, poison, or the lanes.
func (p *printer) shuffleMask(mask []int) {
	p.s(", <")
	p.i(len(mask))
	p.s(" x i32> ")
	allZero, allPoison := true, true
	for _, x := range mask {
		if x != 0 {
			allZero = false
		}
		if x != -1 {
			allPoison = false
		}
	}
	switch {
	case allZero:
		p.s("zeroinitializer")
	case allPoison:
		p.s("poison")
	default:
		p.b('<')
		for k, x := range mask {
			if k > 0 {
				p.s(", ")
			}
			p.s("i32 ")
			if x == -1 {
				p.s("poison")
			} else {
				p.i(x)
			}
		}
		p.b('>')
	}
}

// indexList prints extractvalue/insertvalue member indices as ", i, j".
func (p *printer) indexList(idx []uint32) {
	for _, x := range idx {
		p.s(", ")
		p.u(uint64(x))
	}
}
