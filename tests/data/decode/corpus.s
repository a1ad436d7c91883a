# Decoder corpus: one instruction per line, assembled by binutils `as` at
# test-build time (gen-corpus.awk), each with its expected decode after "#=".
#
# Expectation grammar (parsed by tests/unit/test_decode.c):
#   none                   no memory operand at all
#   bad                    decoder must reject (-EINVAL)
#   nosup                  decoder must report -EOPNOTSUPP
#   addr FIELDS            address formed, memory not accessed (LEA, NOP m)
#   load|store|rmw SIZE FIELDS [| second operand]
# FIELDS: base=REG index=REG scale=N disp=N seg=fs|gs asize=2|4|8
#         and flags vsib noaddr disp8n xlat.  REG: ax cx dx bx sp bp si di
#         r8..r15 rip.  Defaults: no base/index, scale 1, disp 0, flat
#         segment, asize = mode's (8 in 64-bit, 4 in 32-bit code).
# SIZE is bytes accessed, 0 = unknown to the decoder (documented choice).
# The test also checks the decoded length against the assembled length,
# that every shorter buffer gives -ENODATA, and the effective address
# computed from a fixed register file against these fields.

.code64
# ---- ModRM: base, disp8, disp32, special rm values ----------------------
	movq (%rax), %rcx			#= load 8 base=ax
	movq %rcx, (%rax)			#= store 8 base=ax
	movl (%rcx), %eax			#= load 4 base=cx
	movw (%rdx), %ax			#= load 2 base=dx
	movb (%rbx), %al			#= load 1 base=bx
	movb %ah, (%rsi)			#= store 1 base=si
	movq 8(%rax), %rcx			#= load 8 base=ax disp=8
	movq -8(%rbp), %rax			#= load 8 base=bp disp=-8
	movq 0x12345678(%rax), %rcx		#= load 8 base=ax disp=0x12345678
	movq -0x80(%rsi), %rdx			#= load 8 base=si disp=-0x80
	movq 0x7f(%rdi), %rdx			#= load 8 base=di disp=0x7f
	movq 0x80(%rdi), %rdx			#= load 8 base=di disp=0x80
	movq -0x81(%rdi), %rdx			#= load 8 base=di disp=-0x81
	movq -0x80000000(%rcx), %rdx		#= load 8 base=cx disp=-0x80000000
	movq (%rsp), %rax			#= load 8 base=sp
	movq 16(%rsp), %rax			#= load 8 base=sp disp=16
	movq (%rbp), %rax			#= load 8 base=bp
	movq 0x1000(%rbp), %rax			#= load 8 base=bp disp=0x1000
	movq (%r12), %rax			#= load 8 base=r12
	movq 0x20(%r12), %rax			#= load 8 base=r12 disp=0x20
	movq (%r13), %rax			#= load 8 base=r13
	movq -4(%r13), %rax			#= load 8 base=r13 disp=-4
	movq (%r8), %r9				#= load 8 base=r8
	movq %r10, (%r11)			#= store 8 base=r11
	movq (%r15), %r14			#= load 8 base=r15
	movl %r8d, 4(%r14)			#= store 4 base=r14 disp=4
	movb %r9b, (%r10)			#= store 1 base=r10
	movb %sil, (%rdi)			#= store 1 base=di
	movw %r8w, (%rax)			#= store 2 base=ax
# ---- SIB ----------------------------------------------------------------
	movq (%rax,%rbx), %rcx			#= load 8 base=ax index=bx
	movq (%rax,%rbx,2), %rcx		#= load 8 base=ax index=bx scale=2
	movq (%rax,%rbx,4), %rcx		#= load 8 base=ax index=bx scale=4
	movq (%rax,%rbx,8), %rcx		#= load 8 base=ax index=bx scale=8
	movq 0x10(%rax,%rbx,8), %rcx		#= load 8 base=ax index=bx scale=8 disp=0x10
	movq -0x1000(%rax,%rbx,8), %rcx		#= load 8 base=ax index=bx scale=8 disp=-0x1000
	movq (%rax,%r12,8), %rcx		#= load 8 base=ax index=r12 scale=8
	movq (%r12,%r13,2), %rcx		#= load 8 base=r12 index=r13 scale=2
	movq (%r13,%rax), %rcx			#= load 8 base=r13 index=ax
	movq (%rbp,%rcx,4), %rax		#= load 8 base=bp index=cx scale=4
	movq 0x100(,%rcx,4), %rax		#= load 8 index=cx scale=4 disp=0x100
	movq (,%rcx,8), %rax			#= load 8 index=cx scale=8
	movq -8(,%r9,2), %rax			#= load 8 index=r9 scale=2 disp=-8
	movq 0x1000, %rax			#= load 8 disp=0x1000
	movq (%rsp,%rax,2), %rcx		#= load 8 base=sp index=ax scale=2
	movq 8(%rsp,%rsi,8), %rcx		#= load 8 base=sp index=si scale=8 disp=8
	movq (%r15,%r15,1), %rcx		#= load 8 base=r15 index=r15
	movl 0x7fffffff(%rdx,%rdi,4), %eax	#= load 4 base=dx index=di scale=4 disp=0x7fffffff
	.byte 0x8b, 0x04, 0xe0			#= load 4 base=ax
	.byte 0x8b, 0x44, 0x25, 0x08		#= load 4 base=bp disp=8
	.byte 0x42, 0x8b, 0x04, 0x20		#= load 4 base=ax index=r12
	.byte 0x41, 0x8b, 0x04, 0x25, 0x00, 0x10, 0x00, 0x00	#= load 4 disp=0x1000
	.byte 0x41, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00		#= load 4 base=rip disp=0x10
	.byte 0x43, 0x8b, 0x44, 0x25, 0xf0	#= load 4 base=r13 index=r12 disp=-0x10
# ---- RIP-relative (next instruction + disp) -----------------------------
	movq 0x100(%rip), %rax			#= load 8 base=rip disp=0x100
	movq -0x100(%rip), %rax			#= load 8 base=rip disp=-0x100
	movq %rax, 0x7fff0000(%rip)		#= store 8 base=rip disp=0x7fff0000
	movl $0x12345678, 0x40(%rip)		#= store 4 base=rip disp=0x40
	movw $0x1234, 0x40(%rip)		#= store 2 base=rip disp=0x40
	movb $1, -0x10(%rip)			#= store 1 base=rip disp=-0x10
	cmpb $1, 0x10(%rip)			#= load 1 base=rip disp=0x10
	cmpl $0x1000, 0x10(%rip)		#= load 4 base=rip disp=0x10
	addq $1, 0x20(%rip)			#= rmw 8 base=rip disp=0x20
	testb $1, 0x10(%rip)			#= load 1 base=rip disp=0x10
	testl $0x10000, 0x10(%rip)		#= load 4 base=rip disp=0x10
	imull $100000, 0x8(%rip), %eax		#= load 4 base=rip disp=8
	leaq 0x100(%rip), %rax			#= addr base=rip disp=0x100
	movsd 0x80(%rip), %xmm0			#= load 8 base=rip disp=0x80
	pushq 0x10(%rip)			#= load 8 base=rip disp=0x10 | store 8 base=sp disp=-8
	callq *0x10(%rip)			#= load 8 base=rip disp=0x10 | store 8 base=sp disp=-8
	jmpq *0x10(%rip)			#= load 8 base=rip disp=0x10
	movl 0x10(%eip), %eax			#= load 4 base=rip disp=0x10 asize=4
# ---- segment overrides --------------------------------------------------
	movq %fs:0x28, %rax			#= load 8 seg=fs disp=0x28
	movq %fs:(%rax), %rcx			#= load 8 seg=fs base=ax
	movq %gs:0x10(%rbx,%rcx,4), %rdx	#= load 8 seg=gs base=bx index=cx scale=4 disp=0x10
	movl %gs:0x18, %eax			#= load 4 seg=gs disp=0x18
	movq %rax, %fs:0x10(%rip)		#= store 8 seg=fs base=rip disp=0x10
	addl $1, %gs:(%rdi)			#= rmw 4 seg=gs base=di
	movq %ds:(%rax), %rcx			#= load 8 base=ax
	movq %es:8(%rax), %rcx			#= load 8 base=ax disp=8
	movq %cs:(%rax), %rcx			#= load 8 base=ax
	movq %ss:(%rax), %rcx			#= load 8 base=ax
	.byte 0x64, 0x65, 0x8b, 0x00		#= load 4 seg=gs base=ax
	.byte 0x64, 0x3e, 0x8b, 0x00		#= load 4 base=ax
	.byte 0x3e, 0x64, 0x8b, 0x00		#= load 4 seg=fs base=ax
	.byte 0x64, 0x48, 0x8d, 0x48, 0x08	#= addr base=ax disp=8
# ---- address-size override (0x67) ---------------------------------------
	movl (%eax), %ecx			#= load 4 base=ax asize=4
	movl 8(%ebx,%esi,4), %ecx		#= load 4 base=bx index=si scale=4 disp=8 asize=4
	movl -8(%ebp), %ecx			#= load 4 base=bp disp=-8 asize=4
	movq (%r8d), %rax			#= load 8 base=r8 asize=4
	movl %fs:(%eax), %ecx			#= load 4 seg=fs base=ax asize=4
	leal (%eax,%eax,2), %ecx		#= addr base=ax index=ax scale=2 asize=4
	movl 0x10(,%eax,8), %ecx		#= load 4 index=ax scale=8 disp=0x10 asize=4
# ---- prefixes and REX ---------------------------------------------------
	.byte 0x2e, 0x2e, 0x3e, 0x48, 0x8b, 0x00	#= load 8 base=ax
	.byte 0x48, 0x66, 0x8b, 0x00		#= load 2 base=ax
	.byte 0x40, 0x48, 0x8b, 0x00		#= load 8 base=ax
	.byte 0x41, 0x66, 0x8b, 0x00		#= load 2 base=ax
	.byte 0x66, 0x48, 0x8b, 0x00		#= load 8 base=ax
	.byte 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90	#= none
	.byte 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90	#= bad
	.byte 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x8b, 0x84, 0x00, 0x00, 0x00, 0x00	#= bad
	.byte 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x8b, 0x84, 0x00, 0x10, 0x00, 0x00, 0x00	#= load 2 base=ax index=ax disp=0x10
	lock addl $1, (%rax)			#= rmw 4 base=ax
	lock cmpxchgq %rcx, (%rdx)		#= rmw 8 base=dx
	lock xaddl %eax, (%rbx)			#= rmw 4 base=bx
	lock incq 8(%rsp)			#= rmw 8 base=sp disp=8
	lock orb $1, (%rdi)			#= rmw 1 base=di
	xacquire lock addl $1, (%rax)		#= rmw 4 base=ax
# ---- integer ALU --------------------------------------------------------
	addq %rax, (%rbx)			#= rmw 8 base=bx
	addl (%rbx), %eax			#= load 4 base=bx
	addb %al, (%rcx)			#= rmw 1 base=cx
	addb (%rcx), %al			#= load 1 base=cx
	addb $1, (%rax)				#= rmw 1 base=ax
	addw $0x1234, (%rax)			#= rmw 2 base=ax
	addl $0x12345678, 4(%rax)		#= rmw 4 base=ax disp=4
	addq $1, 8(%rax)			#= rmw 8 base=ax disp=8
	addq $-0x1000, 8(%rax)			#= rmw 8 base=ax disp=8
	orl $1, (%rax)				#= rmw 4 base=ax
	adcl $1, (%rax)				#= rmw 4 base=ax
	sbbq %rcx, (%rax)			#= rmw 8 base=ax
	andl $0xff, (%rax)			#= rmw 4 base=ax
	subl %ecx, (%rax)			#= rmw 4 base=ax
	subq (%rax), %rcx			#= load 8 base=ax
	xorl (%rax), %ecx			#= load 4 base=ax
	xorw %cx, (%rax)			#= rmw 2 base=ax
	cmpl $1, (%rax)				#= load 4 base=ax
	cmpq %rax, (%rbx)			#= load 8 base=bx
	cmpb (%rbx), %al			#= load 1 base=bx
	cmpw $0x100, 2(%rbx)			#= load 2 base=bx disp=2
	cmpq $0x10000, (%rbx)			#= load 8 base=bx
	testl $0x100, (%rax)			#= load 4 base=ax
	testw $0x100, (%rax)			#= load 2 base=ax
	testq $1, (%rax)			#= load 8 base=ax
	testb $1, 3(%rax)			#= load 1 base=ax disp=3
	testq %rax, (%rbx)			#= load 8 base=bx
	notl (%rax)				#= rmw 4 base=ax
	negq (%rax)				#= rmw 8 base=ax
	negb (%rax)				#= rmw 1 base=ax
	mull (%rax)				#= load 4 base=ax
	imulq (%rax)				#= load 8 base=ax
	divl (%rax)				#= load 4 base=ax
	idivq 8(%rax)				#= load 8 base=ax disp=8
	divb (%rax)				#= load 1 base=ax
	incl (%rax)				#= rmw 4 base=ax
	decq (%rax)				#= rmw 8 base=ax
	incb (%rax)				#= rmw 1 base=ax
	decw (%rax)				#= rmw 2 base=ax
	shll (%rax)				#= rmw 4 base=ax
	shlq $3, (%rax)				#= rmw 8 base=ax
	shrb %cl, (%rax)			#= rmw 1 base=ax
	sarw $2, (%rax)				#= rmw 2 base=ax
	roll (%rax)				#= rmw 4 base=ax
	rorq $7, 8(%rax)			#= rmw 8 base=ax disp=8
	rclb $1, (%rax)				#= rmw 1 base=ax
	rcrl %cl, (%rax)			#= rmw 4 base=ax
	sarq %cl, (%rax)			#= rmw 8 base=ax
	xchgq %rax, (%rbx)			#= rmw 8 base=bx
	xchgb %al, (%rbx)			#= rmw 1 base=bx
	cmpxchgl %ecx, (%rdx)			#= rmw 4 base=dx
	cmpxchgb %cl, (%rdx)			#= rmw 1 base=dx
	cmpxchg8b (%rax)			#= rmw 8 base=ax
	cmpxchg16b (%rax)			#= rmw 16 base=ax
	xaddq %rax, (%rbx)			#= rmw 8 base=bx
	imull $10, (%rax), %ecx			#= load 4 base=ax
	imulq $1000, (%rax), %rcx		#= load 8 base=ax
	imulw $1000, (%rax), %cx		#= load 2 base=ax
	imulq (%rax), %rcx			#= load 8 base=ax
	movzbl (%rax), %ecx			#= load 1 base=ax
	movzwl (%rax), %ecx			#= load 2 base=ax
	movsbq (%rax), %rcx			#= load 1 base=ax
	movswq (%rax), %rcx			#= load 2 base=ax
	movslq (%rax), %rcx			#= load 4 base=ax
	movl $1, (%rax)				#= store 4 base=ax
	movq $-1, 8(%rax)			#= store 8 base=ax disp=8
	movb $1, (%rax)				#= store 1 base=ax
	movw $1, (%rax)				#= store 2 base=ax
	movq $0x12345678, 0x10(%rsp)		#= store 8 base=sp disp=0x10
	cmovne (%rax), %rcx			#= load 8 base=ax
	cmovll (%rax), %ecx			#= load 4 base=ax
	cmovaw (%rax), %cx			#= load 2 base=ax
	sete (%rax)				#= store 1 base=ax
	setg 0x10(%rsp)				#= store 1 base=sp disp=0x10
	btq %rax, (%rbx)			#= load 8 base=bx bit=ax
	btl $1, (%rax)				#= load 4 base=ax
	btsl $3, (%rax)				#= rmw 4 base=ax
	btrq %rcx, (%rax)			#= rmw 8 base=ax bit=cx
	btcl $31, (%rax)			#= rmw 4 base=ax
	btcw %cx, (%rax)			#= rmw 2 base=ax bit=cx
	btsl %r9d, 0x10(%rax,%rbx,4)		#= rmw 4 base=ax index=bx scale=4 disp=0x10 bit=r9
	bsfq (%rax), %rcx			#= load 8 base=ax
	bsrl (%rax), %ecx			#= load 4 base=ax
	popcntq (%rax), %rcx			#= load 8 base=ax
	lzcntl (%rax), %ecx			#= load 4 base=ax
	tzcntw (%rax), %cx			#= load 2 base=ax
	shldq $3, %rcx, (%rax)			#= rmw 8 base=ax
	shldl %cl, %ecx, (%rax)			#= rmw 4 base=ax
	shrdl $5, %ecx, (%rax)			#= rmw 4 base=ax
	shrdq %cl, %rcx, (%rax)			#= rmw 8 base=ax
	movbel (%rax), %ecx			#= load 4 base=ax
	movbeq %rcx, (%rax)			#= store 8 base=ax
	movbew (%rax), %cx			#= load 2 base=ax
	crc32b (%rax), %ecx			#= load 1 base=ax
	crc32l (%rax), %ecx			#= load 4 base=ax
	crc32q (%rax), %rcx			#= load 8 base=ax
	adcxq (%rax), %rcx			#= load 8 base=ax
	adoxl (%rax), %ecx			#= load 4 base=ax
	movw %ds, (%rax)			#= store 2 base=ax
	movw (%rax), %ds			#= load 2 base=ax
	larw (%rax), %cx			#= load 2 base=ax
	lsll (%rax), %ecx			#= load 2 base=ax
	movntil %eax, (%rbx)			#= store 4 base=bx
	movntiq %rax, (%rbx)			#= store 8 base=bx
# ---- moffs --------------------------------------------------------------
	movabsq 0x1122334455667788, %rax	#= load 8 disp=0x1122334455667788
	movabsq %rax, 0x1122334455667788	#= store 8 disp=0x1122334455667788
	movabsb 0x1000, %al			#= load 1 disp=0x1000
	movabsl %eax, 0x1000			#= store 4 disp=0x1000
	movabsw 0x2000, %ax			#= load 2 disp=0x2000
	movabsq %fs:0x28, %rax			#= load 8 seg=fs disp=0x28
	.byte 0x67, 0xa1, 0x78, 0x56, 0x34, 0x12	#= load 4 disp=0x12345678 asize=4
# ---- address only (LEA, NOPs, cache control) -----------------------------
	leaq 8(%rax,%rbx,4), %rcx		#= addr base=ax index=bx scale=4 disp=8
	leaq (%rax), %rcx			#= addr base=ax
	leal -1(%rdx), %eax			#= addr base=dx disp=-1
	leaw 2(%rsi), %ax			#= addr base=si disp=2
	leaq 0x10(,%rdi,8), %rcx		#= addr index=di scale=8 disp=0x10
	nopl (%rax)				#= addr base=ax
	nopl 0x0(%rax)				#= addr base=ax
	nopl 0x0(%rax,%rax,1)			#= addr base=ax index=ax
	nopw 0x0(%rax,%rax,1)			#= addr base=ax index=ax
	nopw %cs:0x0(%rax,%rax,1)		#= addr base=ax index=ax
	nopl 0x0(%rax)				#= addr base=ax
	.byte 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00	#= addr base=ax
	.byte 0x0f, 0x19, 0x00			#= addr base=ax
	.byte 0x0f, 0x18, 0x20			#= addr base=ax
	clflush (%rax)				#= addr base=ax
	clflushopt 8(%rax)			#= addr base=ax disp=8
	clwb (%rbx)				#= addr base=bx
	cldemote (%rcx)				#= addr base=cx
	invlpg (%rax)				#= addr base=ax
	prefetcht0 (%rax)			#= load 0 base=ax
	prefetcht1 0x40(%rax)			#= load 0 base=ax disp=0x40
	prefetcht2 (%rax,%rbx,8)		#= load 0 base=ax index=bx scale=8
	prefetchnta 0x100(%rip)			#= load 0 base=rip disp=0x100
	prefetchw (%rax)			#= load 0 base=ax
	prefetch (%rax)				#= load 0 base=ax
# ---- system -------------------------------------------------------------
	fxsave (%rax)				#= store 0 base=ax
	fxrstor (%rax)				#= load 0 base=ax
	fxsave64 (%rax)				#= store 0 base=ax
	ldmxcsr (%rax)				#= load 4 base=ax
	stmxcsr 4(%rsp)				#= store 4 base=sp disp=4
	xsave (%rax)				#= store 0 base=ax
	xrstor (%rax)				#= load 0 base=ax
	xsaveopt (%rax)				#= store 0 base=ax
	xsavec (%rax)				#= store 0 base=ax
	xsaves (%rax)				#= store 0 base=ax
	xrstors (%rax)				#= load 0 base=ax
	xsave64 (%rax)				#= store 0 base=ax
	sgdt (%rax)				#= store 0 base=ax
	sidt (%rax)				#= store 0 base=ax
	lgdt (%rax)				#= load 0 base=ax
	lidt (%rax)				#= load 0 base=ax
	smsw (%rax)				#= store 2 base=ax
	lmsw (%rax)				#= load 2 base=ax
	sldt (%rax)				#= store 2 base=ax
	str (%rax)				#= store 2 base=ax
	lldt (%rax)				#= load 2 base=ax
	ltr (%rax)				#= load 2 base=ax
	verr (%rax)				#= load 2 base=ax
	verw (%rax)				#= load 2 base=ax
	vmptrld (%rax)				#= load 8 base=ax
	vmptrst (%rax)				#= store 8 base=ax
	vmclear (%rax)				#= load 8 base=ax
	vmxon (%rax)				#= load 8 base=ax
	vmread %rax, (%rbx)			#= store 8 base=bx
	vmwrite (%rbx), %rax			#= load 8 base=bx
	ptwritel (%rax)				#= load 4 base=ax
	ptwriteq (%rax)				#= load 8 base=ax
	rstorssp (%rax)				#= load 8 base=ax
	lss (%rax), %ecx			#= load 0 base=ax
	lfsl (%rax), %ecx			#= load 0 base=ax
	lgsl (%rax), %ecx			#= load 0 base=ax
	ljmp *(%rax)				#= load 0 base=ax
	lcalll *(%rax)				#= load 0 base=ax | store 0 base=sp disp=-8
# ---- x87 ----------------------------------------------------------------
	flds (%rax)				#= load 4 base=ax
	fldl (%rax)				#= load 8 base=ax
	fldt (%rax)				#= load 10 base=ax
	fsts (%rax)				#= store 4 base=ax
	fstpl 8(%rax)				#= store 8 base=ax disp=8
	fstpt (%rax)				#= store 10 base=ax
	fildl (%rax)				#= load 4 base=ax
	filds (%rax)				#= load 2 base=ax
	fildll (%rax)				#= load 8 base=ax
	fistps (%rax)				#= store 2 base=ax
	fistpl (%rax)				#= store 4 base=ax
	fistpll (%rax)				#= store 8 base=ax
	fisttpl (%rax)				#= store 4 base=ax
	fisttpll (%rax)				#= store 8 base=ax
	fisttps (%rax)				#= store 2 base=ax
	fistl (%rax)				#= store 4 base=ax
	fadds (%rax)				#= load 4 base=ax
	faddl (%rax)				#= load 8 base=ax
	fmuls (%rax)				#= load 4 base=ax
	fdivrl (%rax)				#= load 8 base=ax
	fcomps (%rax)				#= load 4 base=ax
	fiaddl (%rax)				#= load 4 base=ax
	fiadds (%rax)				#= load 2 base=ax
	fidivrl (%rax)				#= load 4 base=ax
	fnstcw (%rax)				#= store 2 base=ax
	fldcw (%rax)				#= load 2 base=ax
	fnstsw (%rax)				#= store 2 base=ax
	fnstenv (%rax)				#= store 0 base=ax
	fldenv (%rax)				#= load 0 base=ax
	fnsave (%rax)				#= store 0 base=ax
	frstor (%rax)				#= load 0 base=ax
	fbld (%rax)				#= load 10 base=ax
	fbstp (%rax)				#= store 10 base=ax
	fadd %st(1), %st			#= none
	fld1					#= none
	fxch %st(2)				#= none
	fsqrt					#= none
	fstp %st(1)				#= none
	fnstsw %ax				#= none
	fucomip %st(1), %st			#= none
	.byte 0xd9, 0x08			#= bad
# ---- stack (implicit RSP operand) -----------------------------------------
	pushq %rax				#= store 8 base=sp disp=-8
	pushq %r12				#= store 8 base=sp disp=-8
	popq %rbx				#= load 8 base=sp
	popq %r15				#= load 8 base=sp
	pushw %ax				#= store 2 base=sp disp=-2
	popw %cx				#= load 2 base=sp
	pushq $1				#= store 8 base=sp disp=-8
	pushq $0x12345678			#= store 8 base=sp disp=-8
	pushw $1				#= store 2 base=sp disp=-2
	pushq (%rax)				#= load 8 base=ax | store 8 base=sp disp=-8
	pushq 8(%rsp)				#= load 8 base=sp disp=8 | store 8 base=sp disp=-8
	pushw (%rax)				#= load 2 base=ax | store 2 base=sp disp=-2
	popq (%rax)				#= store 8 base=ax | load 8 base=sp
	popq 8(%rsp)				#= store 8 base=sp disp=16 | load 8 base=sp
	popq (%rsp)				#= store 8 base=sp disp=8 | load 8 base=sp
	pushfq					#= store 8 base=sp disp=-8
	popfq					#= load 8 base=sp
	pushq %fs				#= store 8 base=sp disp=-8
	popq %gs				#= load 8 base=sp
	.byte 0xe8, 0x10, 0x00, 0x00, 0x00	#= store 8 base=sp disp=-8
	callq *%rax				#= store 8 base=sp disp=-8
	callq *%r11				#= store 8 base=sp disp=-8
	callq *(%rax)				#= load 8 base=ax | store 8 base=sp disp=-8
	callq *0x18(%rbx,%rcx,8)		#= load 8 base=bx index=cx scale=8 disp=0x18 | store 8 base=sp disp=-8
	callq *%fs:0x10				#= load 8 seg=fs disp=0x10 | store 8 base=sp disp=-8
	jmpq *(%rax)				#= load 8 base=ax
	jmpq *%rax				#= none
	jmpq *0x100(,%rax,8)			#= load 8 index=ax scale=8 disp=0x100
	notrack jmpq *(%rax)			#= load 8 base=ax
	ret					#= load 8 base=sp
	ret $16					#= load 8 base=sp
	lretl					#= load 0 base=sp
	lretq $8				#= load 0 base=sp
	iretq					#= load 0 base=sp
	leave					#= load 8 base=bp
	enter $16, $0				#= store 8 base=sp disp=-8
	enter $0x100, $1			#= store 8 base=sp disp=-8
	.byte 0xeb, 0x00			#= none
	.byte 0x75, 0x10			#= none
	.byte 0x0f, 0x85, 0x00, 0x01, 0x00, 0x00	#= none
	.byte 0xe9, 0x00, 0x00, 0x00, 0x00	#= none
	.byte 0x66, 0xe9, 0x00, 0x00, 0x00, 0x00	#= none
	.byte 0xe3, 0x05			#= none
	.byte 0xe2, 0xfe			#= none
# ---- string instructions (RSI/RDI) --------------------------------------
	movsb					#= load 1 base=si | store 1 base=di
	movsw					#= load 2 base=si | store 2 base=di
	movsl					#= load 4 base=si | store 4 base=di
	movsq					#= load 8 base=si | store 8 base=di
	rep movsq				#= load 8 base=si | store 8 base=di
	rep movsb				#= load 1 base=si | store 1 base=di
	movsw %fs:(%rsi), %es:(%rdi)		#= load 2 base=si seg=fs | store 2 base=di
	movsb (%esi), (%edi)			#= load 1 base=si asize=4 | store 1 base=di asize=4
	stosq					#= store 8 base=di
	rep stosb				#= store 1 base=di
	stosl					#= store 4 base=di
	lodsl					#= load 4 base=si
	lodsb %gs:(%rsi), %al			#= load 1 base=si seg=gs
	lodsq					#= load 8 base=si
	scasb					#= load 1 base=di
	repne scasb				#= load 1 base=di
	scasq					#= load 8 base=di
	cmpsq					#= load 8 base=si | load 8 base=di
	repe cmpsb				#= load 1 base=si | load 1 base=di
	cmpsw %es:(%rdi), %fs:(%rsi)		#= load 2 base=si seg=fs | load 2 base=di
	insb					#= store 1 base=di
	insl					#= store 4 base=di
	outsb					#= load 1 base=si
	outsw					#= load 2 base=si
	rep outsl				#= load 4 base=si
	xlat					#= load 1 base=bx xlat
	xlat %fs:(%rbx)				#= load 1 base=bx seg=fs xlat
	maskmovq %mm1, %mm0			#= store 8 base=di
	maskmovdqu %xmm1, %xmm0			#= store 16 base=di
	vmaskmovdqu %xmm1, %xmm0		#= store 16 base=di
# ---- no memory operand ----------------------------------------------------
	nop					#= none
	pause					#= none
	hlt					#= none
	cpuid					#= none
	rdtsc					#= none
	rdtscp					#= none
	rdpmc					#= none
	rdmsr					#= none
	wrmsr					#= none
	syscall					#= none
	sysretq					#= none
	sysenter				#= none
	mfence					#= none
	lfence					#= none
	sfence					#= none
	cli					#= none
	sti					#= none
	cld					#= none
	std					#= none
	clc					#= none
	stc					#= none
	cmc					#= none
	int3					#= none
	int $0x80				#= none
	int1					#= none
	ud2					#= none
	ud1 %eax, %ecx				#= none
	cltq					#= none
	cqto					#= none
	cwtl					#= none
	cltd					#= none
	lahf					#= none
	sahf					#= none
	fwait					#= none
	emms					#= none
	clts					#= none
	invd					#= none
	wbinvd					#= none
	swapgs					#= none
	clac					#= none
	stac					#= none
	xgetbv					#= none
	vmcall					#= none
	vmlaunch				#= none
	monitor					#= none
	mwait					#= none
	endbr64					#= none
	endbr32					#= none
	xend					#= none
	xtest					#= none
	xabort $1				#= none
	.byte 0xc7, 0xf8, 0x00, 0x00, 0x00, 0x00	#= none
	rdrand %rax				#= none
	rdseed %eax				#= none
	rdpid %rax				#= none
	rdfsbase %rax				#= none
	wrgsbase %rcx				#= none
	xchgl %eax, %ecx			#= none
	xchgq %rax, %r8				#= none
	bswap %eax				#= none
	bswap %r12				#= none
	movq %rax, %rbx				#= none
	movl $1, %eax				#= none
	movabsq $0x1122334455667788, %rax	#= none
	movq $-1, %rax				#= none
	movb $1, %al				#= none
	movw $1, %ax				#= none
	movw $0x1234, %r9w			#= none
	addq $1, %rax				#= none
	addl $0x12345678, %eax			#= none
	addw $1, %ax				#= none
	addw $0x1234, %cx			#= none
	testl $1, %eax				#= none
	testb $1, %al				#= none
	testl $0x10000, %ecx			#= none
	testw $0x100, %cx			#= none
	testb $1, %cl				#= none
	testq $-1, %rdx				#= none
	imull $10, %eax, %ecx			#= none
	imull $1000, %eax, %ecx			#= none
	shlq $3, %rax				#= none
	sarl %cl, %edx				#= none
	roll %eax				#= none
	incl %eax				#= none
	incq %r8				#= none
	negq %rax				#= none
	notl %ecx				#= none
	mulq %rcx				#= none
	divl %ecx				#= none
	xorl %eax, %eax				#= none
	cmpq %rax, %rbx				#= none
	cmovneq %rax, %rcx			#= none
	sete %al				#= none
	btl $3, %eax				#= none
	btsq %rax, %rcx				#= none
	bsfq %rax, %rcx				#= none
	popcntq %rax, %rcx			#= none
	lzcntq %rax, %rcx			#= none
	movzbl %al, %ecx			#= none
	movsbq %al, %rcx			#= none
	movslq %eax, %rcx			#= none
	movq %cr0, %rax				#= none
	movq %rax, %cr3				#= none
	movq %dr7, %rax				#= none
	.byte 0x0f, 0x20, 0x00			#= none
	crc32b %al, %ecx			#= none
	adoxq %rax, %rcx			#= none
	andnq %rax, %rbx, %rcx			#= none
	blsrq %rax, %rcx			#= none
	bzhiq %rax, %rbx, %rcx			#= none
	pdepq %rax, %rbx, %rcx			#= none
	pextl %eax, %ebx, %ecx			#= none
	mulxq %rax, %rbx, %rcx			#= none
	shlxq %rax, %rbx, %rcx			#= none
	rorxq $3, %rax, %rcx			#= none
	bextrl %eax, %ebx, %ecx			#= none
	inb $0x60, %al				#= none
	outb %al, $0x80				#= none
	inb (%dx), %al				#= none
	outl %eax, (%dx)			#= none
	movl %eax, %r15d			#= none
	shldq $4, %rax, %rbx			#= none
	xaddl %eax, %ecx			#= none
	cmpxchgq %rcx, %rdx			#= none
	setb %r9b				#= none
	getsec					#= none
	.byte 0x0f, 0xff, 0xc0			#= none
	femms					#= none
# ---- invalid in 64-bit mode / undefined ----------------------------------
	.byte 0x06				#= bad
	.byte 0x1f				#= bad
	.byte 0x27				#= bad
	.byte 0x60				#= bad
	.byte 0x61				#= bad
	.byte 0xce				#= bad
	.byte 0xd4, 0x0a			#= bad
	.byte 0xd6				#= bad
	.byte 0xea, 0, 0, 0, 0, 0, 0		#= bad
	.byte 0x9a, 0, 0, 0, 0, 0, 0		#= bad
	.byte 0x82, 0x00, 0x01			#= bad
	.byte 0x0f, 0x04			#= bad
	.byte 0x0f, 0x0a			#= bad
	.byte 0x0f, 0x24			#= bad
	.byte 0xfe, 0xd0			#= bad
	.byte 0xff, 0xff			#= bad
	.byte 0xff, 0xd8			#= bad
	.byte 0xc6, 0x08, 0x00			#= bad
	.byte 0x0f, 0xba, 0x00, 0x01		#= bad
	.byte 0x0f, 0xba, 0x20, 0x01		#= load 4 base=ax
	.byte 0x66, 0xc5, 0xf8, 0x77		#= bad
	.byte 0x48, 0xc5, 0xf8, 0x77		#= bad
	.byte 0xf3, 0xc4, 0xe2, 0x79, 0x18, 0x00	#= bad
	.byte 0xc4, 0xe4, 0x79, 0x18, 0x00	#= bad
	.byte 0x62, 0xf1, 0x7c, 0x48, 0x10, 0x00	#= load 64 base=ax
	.byte 0x62, 0xf1, 0x78, 0x48, 0x10, 0x00	#= bad
	.byte 0x62, 0xf4, 0x7c, 0x48, 0x10, 0x00	#= bad
	vpcmov %xmm3, %xmm2, %xmm1, %xmm0	#= nosup
# ---- SSE and MMX ----------------------------------------------------------
	movups (%rax), %xmm0			#= load 16 base=ax
	movups %xmm0, (%rax)			#= store 16 base=ax
	movaps 0x10(%rax), %xmm1		#= load 16 base=ax disp=0x10
	movaps %xmm1, (%rax)			#= store 16 base=ax
	movupd (%rax), %xmm9			#= load 16 base=ax
	movapd %xmm15, (%r8)			#= store 16 base=r8
	movss (%rax), %xmm0			#= load 4 base=ax
	movss %xmm0, (%rax)			#= store 4 base=ax
	movsd (%rax), %xmm0			#= load 8 base=ax
	movsd %xmm0, (%rax,%rcx,8)		#= store 8 base=ax index=cx scale=8
	movdqa (%rax), %xmm0			#= load 16 base=ax
	movdqu %xmm0, (%rax)			#= store 16 base=ax
	movdqu (%rax), %xmm12			#= load 16 base=ax
	movq (%rax), %mm0			#= load 8 base=ax
	movq %mm0, (%rax)			#= store 8 base=ax
	movd (%rax), %xmm0			#= load 4 base=ax
	movq (%rax), %xmm0			#= load 8 base=ax
	movd %xmm0, (%rax)			#= store 4 base=ax
	movq %xmm0, (%rax)			#= store 8 base=ax
	movd (%rax), %mm0			#= load 4 base=ax
	movd %mm1, (%rax)			#= store 4 base=ax
	movlps (%rax), %xmm0			#= load 8 base=ax
	movlps %xmm0, (%rax)			#= store 8 base=ax
	movhps (%rax), %xmm0			#= load 8 base=ax
	movhpd %xmm0, (%rax)			#= store 8 base=ax
	movlpd (%rax), %xmm0			#= load 8 base=ax
	movddup (%rax), %xmm0			#= load 8 base=ax
	movshdup (%rax), %xmm0			#= load 16 base=ax
	movsldup (%rax), %xmm0			#= load 16 base=ax
	addps (%rax), %xmm0			#= load 16 base=ax
	addss (%rax), %xmm0			#= load 4 base=ax
	addsd 8(%rax), %xmm0			#= load 8 base=ax disp=8
	addpd (%rax), %xmm0			#= load 16 base=ax
	mulps (%rax), %xmm0			#= load 16 base=ax
	subsd (%rax), %xmm0			#= load 8 base=ax
	sqrtss (%rax), %xmm0			#= load 4 base=ax
	maxps (%rax), %xmm0			#= load 16 base=ax
	divsd (%rax), %xmm0			#= load 8 base=ax
	minpd (%rax), %xmm0			#= load 16 base=ax
	andps (%rax), %xmm0			#= load 16 base=ax
	xorpd (%rax), %xmm0			#= load 16 base=ax
	unpcklps (%rax), %xmm0			#= load 16 base=ax
	ucomiss (%rax), %xmm0			#= load 4 base=ax
	comisd (%rax), %xmm0			#= load 8 base=ax
	cvtsi2sdl (%rax), %xmm0			#= load 4 base=ax
	cvtsi2sdq (%rax), %xmm0			#= load 8 base=ax
	cvttss2si (%rax), %eax			#= load 4 base=ax
	cvtsd2si (%rax), %rax			#= load 8 base=ax
	cvtps2pd (%rax), %xmm0			#= load 8 base=ax
	cvtss2sd (%rax), %xmm0			#= load 4 base=ax
	cvtsd2ss (%rax), %xmm0			#= load 8 base=ax
	cvtpd2ps (%rax), %xmm0			#= load 16 base=ax
	cvtdq2ps (%rax), %xmm0			#= load 16 base=ax
	cvtdq2pd (%rax), %xmm0			#= load 8 base=ax
	cvttpd2dq (%rax), %xmm0			#= load 16 base=ax
	cvtpi2ps (%rax), %xmm0			#= load 8 base=ax
	cvttps2pi (%rax), %mm0			#= load 8 base=ax
	paddd (%rax), %xmm0			#= load 16 base=ax
	paddd (%rax), %mm0			#= load 8 base=ax
	pcmpeqb (%rax), %xmm0			#= load 16 base=ax
	pxor (%rax), %xmm0			#= load 16 base=ax
	pmaddwd (%rax), %mm1			#= load 8 base=ax
	pshufd $1, (%rax), %xmm0		#= load 16 base=ax
	pshufw $1, (%rax), %mm0			#= load 8 base=ax
	pshuflw $1, (%rax), %xmm0		#= load 16 base=ax
	punpcklbw (%rax), %mm0			#= load 4 base=ax
	punpcklbw (%rax), %xmm0			#= load 16 base=ax
	punpckhbw (%rax), %mm0			#= load 8 base=ax
	punpcklqdq (%rax), %xmm0		#= load 16 base=ax
	pinsrw $1, (%rax), %xmm0		#= load 2 base=ax
	shufps $0x1b, (%rax), %xmm0		#= load 16 base=ax
	cmpps $1, (%rax), %xmm0			#= load 16 base=ax
	cmpss $1, (%rax), %xmm0			#= load 4 base=ax
	cmpsd $1, (%rax), %xmm0			#= load 8 base=ax
	movntps %xmm0, (%rax)			#= store 16 base=ax
	movntdq %xmm0, (%rax)			#= store 16 base=ax
	movntq %mm0, (%rax)			#= store 8 base=ax
	movntdqa (%rax), %xmm0			#= load 16 base=ax
	lddqu (%rax), %xmm0			#= load 16 base=ax
	haddps (%rax), %xmm0			#= load 16 base=ax
	addsubpd (%rax), %xmm0			#= load 16 base=ax
	psllw (%rax), %mm0			#= load 8 base=ax
	psrad (%rax), %xmm0			#= load 16 base=ax
	pavgb (%rax), %xmm0			#= load 16 base=ax
	pshufb (%rax), %xmm0			#= load 16 base=ax
	pshufb (%rax), %mm0			#= load 8 base=ax
	pabsd (%rax), %mm0			#= load 8 base=ax
	pmovzxbw (%rax), %xmm0			#= load 8 base=ax
	pmovzxbd (%rax), %xmm0			#= load 4 base=ax
	pmovzxbq (%rax), %xmm0			#= load 2 base=ax
	pmovsxdq (%rax), %xmm0			#= load 8 base=ax
	pmovzxwq (%rax), %xmm0			#= load 4 base=ax
	pmovsxwd (%rax), %xmm0			#= load 8 base=ax
	ptest (%rax), %xmm0			#= load 16 base=ax
	pmulld (%rax), %xmm0			#= load 16 base=ax
	palignr $3, (%rax), %xmm0		#= load 16 base=ax
	palignr $3, (%rax), %mm0		#= load 8 base=ax
	pextrb $1, %xmm0, (%rax)		#= store 1 base=ax
	pextrw $1, %xmm0, (%rax)		#= store 2 base=ax
	pextrd $1, %xmm0, (%rax)		#= store 4 base=ax
	pextrq $1, %xmm0, (%rax)		#= store 8 base=ax
	extractps $1, %xmm0, (%rax)		#= store 4 base=ax
	pinsrb $1, (%rax), %xmm0		#= load 1 base=ax
	pinsrd $1, (%rax), %xmm0		#= load 4 base=ax
	pinsrq $1, (%rax), %xmm0		#= load 8 base=ax
	insertps $0x10, (%rax), %xmm0		#= load 4 base=ax
	roundss $1, (%rax), %xmm0		#= load 4 base=ax
	roundsd $1, (%rax), %xmm0		#= load 8 base=ax
	roundps $1, (%rax), %xmm0		#= load 16 base=ax
	blendps $1, (%rax), %xmm0		#= load 16 base=ax
	aesenc (%rax), %xmm0			#= load 16 base=ax
	aeskeygenassist $1, (%rax), %xmm0	#= load 16 base=ax
	pclmulqdq $0, (%rax), %xmm0		#= load 16 base=ax
	sha256rnds2 (%rax), %xmm1		#= load 16 base=ax
	sha1rnds4 $1, (%rax), %xmm1		#= load 16 base=ax
	pcmpestri $0, (%rax), %xmm0		#= load 16 base=ax
	pcmpistrm $0, 0x10(%rip), %xmm0		#= load 16 base=rip disp=0x10
	gf2p8mulb (%rax), %xmm0			#= load 16 base=ax
	pfadd (%rax), %mm0			#= load 8 base=ax
	pfmul 8(%rax), %mm1			#= load 8 base=ax disp=8
	addps %xmm1, %xmm0			#= none
	movaps %xmm1, %xmm2			#= none
	pxor %xmm0, %xmm0			#= none
	paddd %mm1, %mm0			#= none
	movd %eax, %xmm0			#= none
	movq %rax, %xmm0			#= none
	movq %xmm0, %rax			#= none
	movq %xmm1, %xmm0			#= none
	pshufd $0x1b, %xmm1, %xmm0		#= none
	psrldq $4, %xmm0			#= none
	psllw $2, %mm0				#= none
	pextrw $1, %xmm0, %eax			#= none
	pinsrw $1, %eax, %xmm0			#= none
	shufps $1, %xmm1, %xmm0			#= none
	cmpps $1, %xmm1, %xmm0			#= none
	pmovmskb %xmm0, %eax			#= none
	movmskps %xmm0, %eax			#= none
	pshufb %xmm1, %xmm0			#= none
	palignr $3, %xmm1, %xmm0		#= none
	pextrd $1, %xmm0, %eax			#= none
	pinsrq $1, %rax, %xmm0			#= none
	roundss $1, %xmm1, %xmm0		#= none
	pclmulqdq $0, %xmm1, %xmm0		#= none
	aesenc %xmm1, %xmm0			#= none
	sha1rnds4 $1, %xmm1, %xmm0		#= none
	pcmpistri $0, %xmm1, %xmm0		#= none
	cvtsi2sd %rax, %xmm0			#= none
	cvttsd2si %xmm0, %eax			#= none
	extrq $4, $8, %xmm0			#= none
	insertq $4, $8, %xmm1, %xmm0		#= none
# ---- AVX / AVX2 (VEX) -----------------------------------------------------
	vmovups (%rax), %ymm0			#= load 32 base=ax
	vmovups %ymm0, (%rax)			#= store 32 base=ax
	vmovups (%rax), %xmm0			#= load 16 base=ax
	vmovaps %ymm1, 0x20(%rax)		#= store 32 base=ax disp=0x20
	vmovdqu (%rax,%rbx,4), %ymm2		#= load 32 base=ax index=bx scale=4
	vmovdqa %xmm0, (%r8)			#= store 16 base=r8
	vmovdqu (%rax), %ymm8			#= load 32 base=ax
	vmovdqu (%r9), %ymm0			#= load 32 base=r9
	vmovdqu (%rax,%r10,2), %ymm0		#= load 32 base=ax index=r10 scale=2
	vmovdqu 0x100(%rip), %ymm15		#= load 32 base=rip disp=0x100
	vmovss (%rax), %xmm0			#= load 4 base=ax
	vmovsd %xmm0, (%rax)			#= store 8 base=ax
	vaddps (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vaddss (%rax), %xmm1, %xmm0		#= load 4 base=ax
	vaddsd 8(%rax), %xmm1, %xmm0		#= load 8 base=ax disp=8
	vmulpd (%rax), %xmm1, %xmm0		#= load 16 base=ax
	vpaddd (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vpxor 0x100(%rip), %ymm1, %ymm0		#= load 32 base=rip disp=0x100
	vpcmpeqb (%rdi), %ymm1, %ymm0		#= load 32 base=di
	vpshufb (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vbroadcastss (%rax), %ymm0		#= load 4 base=ax
	vbroadcastsd (%rax), %ymm0		#= load 8 base=ax
	vbroadcastf128 (%rax), %ymm0		#= load 16 base=ax
	vpbroadcastd (%rax), %ymm0		#= load 4 base=ax
	vpbroadcastq (%rax), %ymm0		#= load 8 base=ax
	vpbroadcastb (%rax), %ymm0		#= load 1 base=ax
	vpbroadcastw (%rax), %xmm0		#= load 2 base=ax
	vbroadcasti128 (%rax), %ymm0		#= load 16 base=ax
	vinsertf128 $1, (%rax), %ymm1, %ymm0	#= load 16 base=ax
	vextractf128 $1, %ymm0, (%rax)		#= store 16 base=ax
	vinserti128 $1, (%rax), %ymm1, %ymm0	#= load 16 base=ax
	vextracti128 $1, %ymm0, 0x10(%rax)	#= store 16 base=ax disp=0x10
	vmaskmovps (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vmaskmovps %ymm0, %ymm1, (%rax)		#= store 32 base=ax
	vmaskmovpd %xmm0, %xmm1, (%rax)		#= store 16 base=ax
	vpmaskmovd %ymm0, %ymm1, (%rax)		#= store 32 base=ax
	vpmaskmovq (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vfmadd231ps (%rax), %ymm1, %ymm0	#= load 32 base=ax
	vfmadd231ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfmadd132sd (%rax), %xmm1, %xmm0	#= load 8 base=ax
	vfnmsub213pd (%rax), %ymm1, %ymm0	#= load 32 base=ax
	vfmaddsub231ps (%rax), %xmm1, %xmm0	#= load 16 base=ax
	vpmovzxbw (%rax), %ymm0			#= load 16 base=ax
	vpmovzxbd (%rax), %ymm0			#= load 8 base=ax
	vpmovzxbq (%rax), %ymm0			#= load 4 base=ax
	vpmovsxwd (%rax), %xmm0			#= load 8 base=ax
	vcvtph2ps (%rax), %ymm0			#= load 16 base=ax
	vcvtps2ph $0, %ymm0, (%rax)		#= store 16 base=ax
	vcvtps2pd (%rax), %ymm0			#= load 16 base=ax
	vcvtdq2pd (%rax), %ymm0			#= load 16 base=ax
	vpermq $0x1b, (%rax), %ymm0		#= load 32 base=ax
	vpermd (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vpsllvd (%rax), %ymm1, %ymm0		#= load 32 base=ax
	vpblendd $1, (%rax), %ymm1, %ymm0	#= load 32 base=ax
	vblendvps %ymm3, (%rax), %ymm1, %ymm0	#= load 32 base=ax
	vpgatherdd %ymm2, (%rax,%ymm1,4), %ymm0	#= load 0 base=ax index=cx scale=4 vsib
	vgatherqpd %xmm2, 8(%rax,%xmm1,8), %xmm0	#= load 0 base=ax index=cx scale=8 disp=8 vsib
	vpgatherdq %ymm2, (%r8,%xmm9,2), %ymm0	#= load 0 base=r8 index=r9 scale=2 vsib
	vldmxcsr (%rax)				#= load 4 base=ax
	vstmxcsr (%rax)				#= store 4 base=ax
	vmovd (%rax), %xmm0			#= load 4 base=ax
	vmovq (%rax), %xmm0			#= load 8 base=ax
	vmovq %xmm0, (%rax)			#= store 8 base=ax
	vmovd %xmm0, (%rax)			#= store 4 base=ax
	vmovlps (%rax), %xmm1, %xmm0		#= load 8 base=ax
	vmovhps %xmm0, (%rax)			#= store 8 base=ax
	vmovddup (%rax), %xmm0			#= load 8 base=ax
	vmovddup (%rax), %ymm0			#= load 32 base=ax
	vpextrd $1, %xmm0, (%rax)		#= store 4 base=ax
	vpextrb $1, %xmm0, (%rax)		#= store 1 base=ax
	vpinsrq $1, (%rax), %xmm1, %xmm0	#= load 8 base=ax
	vpinsrw $1, (%rax), %xmm1, %xmm0	#= load 2 base=ax
	vinsertps $0x10, (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vroundsd $1, (%rax), %xmm1, %xmm0	#= load 8 base=ax
	vcomiss (%rax), %xmm0			#= load 4 base=ax
	vucomisd (%rax), %xmm0			#= load 8 base=ax
	vcvtsi2ssl (%rax), %xmm1, %xmm0		#= load 4 base=ax
	vcvttsd2si (%rax), %rcx			#= load 8 base=ax
	vlddqu (%rax), %ymm0			#= load 32 base=ax
	vmovntdq %ymm0, (%rax)			#= store 32 base=ax
	vmovntdqa (%rax), %ymm0			#= load 32 base=ax
	vaesenc (%rax), %xmm1, %xmm0		#= load 16 base=ax
	vpclmulqdq $0, (%rax), %xmm1, %xmm0	#= load 16 base=ax
	andnq (%rax), %rbx, %rcx		#= load 8 base=ax
	andnl (%rax), %ebx, %ecx		#= load 4 base=ax
	blsrq (%rax), %rcx			#= load 8 base=ax
	blsil (%rax), %ecx			#= load 4 base=ax
	bzhiq %rax, (%rbx), %rcx		#= load 8 base=bx
	pdepq (%rax), %rbx, %rcx		#= load 8 base=ax
	pextq (%rax), %rbx, %rcx		#= load 8 base=ax
	shlxq %rax, (%rbx), %rcx		#= load 8 base=bx
	sarxl %eax, (%rbx), %ecx		#= load 4 base=bx
	mulxq (%rax), %rbx, %rcx		#= load 8 base=ax
	rorxq $3, (%rax), %rcx			#= load 8 base=ax
	rorxl $3, (%rax), %ecx			#= load 4 base=ax
	bextrq %rax, (%rbx), %rcx		#= load 8 base=bx
	kmovw (%rax), %k1			#= load 2 base=ax
	kmovw %k1, (%rax)			#= store 2 base=ax
	kmovq (%rax), %k1			#= load 8 base=ax
	kmovb %k1, (%rax)			#= store 1 base=ax
	kmovd (%rax), %k1			#= load 4 base=ax
	kmovw %k1, %k2				#= none
	kmovw %eax, %k1				#= none
	kandw %k1, %k2, %k3			#= none
	kortestw %k1, %k2			#= none
	vzeroupper				#= none
	vzeroall				#= none
	vaddps %ymm2, %ymm1, %ymm0		#= none
	vpxor %ymm1, %ymm1, %ymm1		#= none
	vmovdqu %ymm1, %ymm0			#= none
	vpermq $0x1b, %ymm1, %ymm0		#= none
	vpbroadcastd %xmm1, %ymm0		#= none
	vinserti128 $1, %xmm1, %ymm0, %ymm0	#= none
	vextracti128 $1, %ymm0, %xmm1		#= none
	vfmadd231ps %ymm2, %ymm1, %ymm0		#= none
	vblendvps %ymm3, %ymm2, %ymm1, %ymm0	#= none
	vcvtph2ps %xmm1, %ymm0			#= none
	vpsrldq $4, %ymm1, %ymm0		#= none
	vpextrq $1, %xmm0, %rax			#= none
	vmovq %rax, %xmm0			#= none
	vmovmskps %ymm0, %eax			#= none
# ---- AVX-512 (EVEX, disp8*N) --------------------------------------------
	vmovups (%rax), %zmm0			#= load 64 base=ax
	vmovups 0x40(%rax), %zmm0		#= load 64 base=ax disp=0x40
	vmovups 0x80(%rax), %zmm0		#= load 64 base=ax disp=0x80
	vmovups -0x40(%rax), %zmm0		#= load 64 base=ax disp=-0x40
	vmovups -0x2000(%rax), %zmm0		#= load 64 base=ax disp=-0x2000
	vmovups 0x41(%rax), %zmm0		#= load 64 base=ax disp=0x41
	vmovups 0x20(%rax), %ymm16		#= load 32 base=ax disp=0x20
	vmovups 0x10(%rax), %xmm16		#= load 16 base=ax disp=0x10
	vmovups %zmm1, 0x40(%rax,%rbx,8)	#= store 64 base=ax index=bx scale=8 disp=0x40
	vmovups (%r9,%r10,4), %zmm16		#= load 64 base=r9 index=r10 scale=4
	vmovups (%rax,%r12,1), %zmm0		#= load 64 base=ax index=r12
	vmovups 0x40(%rip), %zmm0		#= load 64 base=rip disp=0x40
	vmovups %fs:0x40(%rax), %zmm0		#= load 64 seg=fs base=ax disp=0x40
	vmovups 0x40(%eax), %zmm0		#= load 64 base=ax disp=0x40 asize=4
	vaddps 0x40(%rax), %zmm1, %zmm0		#= load 64 base=ax disp=0x40
	vaddps 4(%rax){1to16}, %zmm1, %zmm0	#= load 4 base=ax disp=4
	vaddpd 8(%rax){1to8}, %zmm1, %zmm0	#= load 8 base=ax disp=8
	vaddps 0x100(%rax){1to16}, %zmm1, %zmm0	#= load 4 base=ax disp=0x100
	vaddss 4(%rax), %xmm17, %xmm16		#= load 4 base=ax disp=4
	vaddsd 0x40(%rax), %xmm17, %xmm16	#= load 8 base=ax disp=0x40
	vmovss 0x40(%rax), %xmm16		#= load 4 base=ax disp=0x40
	vmovsd %xmm16, -8(%rax)			#= store 8 base=ax disp=-8
	vmovd 0x40(%rax), %xmm16		#= load 4 base=ax disp=0x40
	vmovq 0x40(%rax), %xmm16		#= load 8 base=ax disp=0x40
	vpbroadcastd 0x40(%rax), %zmm0		#= load 4 base=ax disp=0x40
	vpbroadcastq 0x40(%rax), %zmm0		#= load 8 base=ax disp=0x40
	vbroadcastss 0x40(%rax), %zmm0		#= load 4 base=ax disp=0x40
	vbroadcastf32x4 0x40(%rax), %zmm0	#= load 16 base=ax disp=0x40
	vbroadcasti64x4 0x40(%rax), %zmm0	#= load 32 base=ax disp=0x40
	vextractf32x4 $1, %zmm0, 0x10(%rax)	#= store 16 base=ax disp=0x10
	vextracti64x4 $1, %zmm0, 0x20(%rax)	#= store 32 base=ax disp=0x20
	vinsertf64x4 $1, 0x20(%rax), %zmm1, %zmm0	#= load 32 base=ax disp=0x20
	vinserti32x4 $1, 0x30(%rax), %zmm1, %zmm0	#= load 16 base=ax disp=0x30
	vpmovzxbw 0x20(%rax), %zmm0		#= load 32 base=ax disp=0x20
	vpmovzxbq 0x8(%rax), %zmm0		#= load 8 base=ax disp=8
	vpmovdb %zmm0, 0x10(%rax)		#= store 16 base=ax disp=0x10
	vpmovqd %zmm0, 0x20(%rax)		#= store 32 base=ax disp=0x20
	vpmovwb %zmm0, 0x20(%rax)		#= store 32 base=ax disp=0x20
	vpmovusqb %zmm0, 0x8(%rax)		#= store 8 base=ax disp=8
	vpmovsdw %ymm0, 0x10(%rax)		#= store 16 base=ax disp=0x10
	vcvtps2pd 0x20(%rax), %zmm0		#= load 32 base=ax disp=0x20
	vcvtdq2pd 0x20(%rax), %zmm0		#= load 32 base=ax disp=0x20
	vcvtph2ps 0x20(%rax), %zmm0		#= load 32 base=ax disp=0x20
	vcvtps2ph $0, %zmm0, 0x20(%rax)		#= store 32 base=ax disp=0x20
	vmovdqu64 0x40(%rax), %zmm0{%k1}{z}	#= load 64 base=ax disp=0x40
	vmovdqa32 %zmm0, 0x40(%rax){%k1}	#= store 64 base=ax disp=0x40
	vmovdqu8 0x20(%rax), %ymm0{%k2}		#= load 32 base=ax disp=0x20
	vpternlogd $0x96, 0x40(%rax), %zmm1, %zmm0	#= load 64 base=ax disp=0x40
	vpaddd 0x40(%rax), %zmm17, %zmm16	#= load 64 base=ax disp=0x40
	vpaddq 8(%rax){1to8}, %zmm1, %zmm0	#= load 8 base=ax disp=8
	vpandd 4(%rax){1to8}, %ymm1, %ymm0	#= load 4 base=ax disp=4
	vfmadd231ps 0x40(%rax), %zmm1, %zmm0	#= load 64 base=ax disp=0x40
	vfmadd231sd 0x40(%rax), %xmm17, %xmm16	#= load 8 base=ax disp=0x40
	vpermt2d 0x40(%rax), %zmm1, %zmm0	#= load 64 base=ax disp=0x40
	vpcmpeqd 0x40(%rax), %zmm1, %k1		#= load 64 base=ax disp=0x40
	vpinsrd $1, 0x40(%rax), %xmm17, %xmm16	#= load 4 base=ax disp=0x40
	vpextrb $1, %xmm16, 0x40(%rax)		#= store 1 base=ax disp=0x40
	vinsertps $0x10, 0x40(%rax), %xmm17, %xmm16	#= load 4 base=ax disp=0x40
	vgatherdps 0x40(%rax,%zmm1,4), %zmm0{%k1}	#= load 0 base=ax index=cx scale=4 disp=0x40 vsib
	vpgatherqq 0x40(%rax,%zmm1,8), %zmm0{%k1}	#= load 0 base=ax index=cx scale=8 disp=0x40 vsib
	vpscatterdd %zmm0, 0x40(%rax,%zmm1,4){%k1}	#= store 0 base=ax index=cx scale=4 disp=0x40 vsib
	vcompressps %zmm0, 0x40(%rax){%k1}	#= store 0 base=ax disp=0x40
	vpexpandd 0x40(%rax), %zmm0{%k1}	#= load 0 base=ax disp=0x40
	vpcompressq %zmm0, 0x40(%rax){%k1}	#= store 0 base=ax disp=0x40
	vpexpandb 0x40(%rax), %zmm0{%k1}	#= load 0 base=ax disp=0x40
	vpcompressw %zmm0, 0x40(%rax){%k1}	#= store 0 base=ax disp=0x40
	vaddph 0x40(%rax), %zmm1, %zmm0		#= load 0 base=ax disp8n
	vaddph (%rax), %zmm1, %zmm0		#= load 0 base=ax
	vaddph 0x41(%rax), %zmm1, %zmm0		#= load 0 base=ax disp=0x41
	vaddps %zmm2, %zmm1, %zmm0		#= none
	vaddps {rn-sae}, %zmm2, %zmm1, %zmm0	#= none
	vpternlogd $0xff, %zmm2, %zmm1, %zmm0	#= none
	vmovdqu64 %zmm1, %zmm0{%k1}{z}		#= none
	vpaddd %zmm18, %zmm17, %zmm16		#= none
	vaddph %zmm2, %zmm1, %zmm0		#= none
	vpcmpeqd %zmm1, %zmm2, %k1		#= none
	kmovq %k1, (%rax)			#= store 8 base=ax
# ---- MPX (documented choices) -------------------------------------------
	bndmov (%rax), %bnd0			#= load 16 base=ax
	bndmov %bnd1, 0x10(%rax)		#= store 16 base=ax disp=0x10
	bndcl (%rax), %bnd0			#= addr base=ax
	bndcu 8(%rax), %bnd0			#= addr base=ax disp=8
	bndcn (%rax), %bnd1			#= addr base=ax
	bndmk (%rax,%rbx), %bnd0		#= addr base=ax index=bx
	bndldx (%rax,%rbx), %bnd0		#= load 0 base=ax index=bx noaddr
	bndstx %bnd0, (%rax,%rbx)		#= store 0 base=ax index=bx noaddr
	bndcl %rax, %bnd0			#= none

.code32
# ---- 32-bit compat mode -------------------------------------------------
	movl (%eax), %ecx			#= load 4 base=ax
	movl 8(%ebx,%esi,4), %ecx		#= load 4 base=bx index=si scale=4 disp=8
	movl -4(%ebp), %eax			#= load 4 base=bp disp=-4
	movl 0x1000, %eax			#= load 4 disp=0x1000
	movl 0x1000, %ecx			#= load 4 disp=0x1000
	movl %ecx, 0x2000			#= store 4 disp=0x2000
	movl 0x10(,%edi,2), %ecx		#= load 4 index=di scale=2 disp=0x10
	movl (%esp), %eax			#= load 4 base=sp
	movw (%eax), %ax			#= load 2 base=ax
	movb %al, (%edi)			#= store 1 base=di
	movl (%bx,%si), %eax			#= load 4 base=bx index=si asize=2
	movl (%bx,%di), %eax			#= load 4 base=bx index=di asize=2
	movl (%bp,%si), %eax			#= load 4 base=bp index=si asize=2
	movl (%bp,%di), %eax			#= load 4 base=bp index=di asize=2
	movl (%si), %eax			#= load 4 base=si asize=2
	movl (%di), %eax			#= load 4 base=di asize=2
	movl (%bx), %eax			#= load 4 base=bx asize=2
	movl 0x10(%bp), %eax			#= load 4 base=bp disp=0x10 asize=2
	movl -2(%bx), %ecx			#= load 4 base=bx disp=-2 asize=2
	movl 0x1000(%bx,%si), %ecx		#= load 4 base=bx index=si disp=0x1000 asize=2
	.byte 0x67, 0x8b, 0x0e, 0x34, 0x12	#= load 4 disp=0x1234 asize=2
	.byte 0x67, 0xa1, 0x34, 0x12		#= load 4 disp=0x1234 asize=2
	addl $1, (%eax)				#= rmw 4 base=ax
	addw $1, (%eax)				#= rmw 2 base=ax
	cmpl $0x1000, (%eax)			#= load 4 base=ax
	testl $0x100, 4(%eax)			#= load 4 base=ax disp=4
	incl (%eax)				#= rmw 4 base=ax
	leal 4(%eax,%ebx,2), %ecx		#= addr base=ax index=bx scale=2 disp=4
	movl %gs:0x10, %eax			#= load 4 seg=gs disp=0x10
	movl %gs:(%eax), %ecx			#= load 4 seg=gs base=ax
	movl %fs:4(%ebx), %ecx			#= load 4 seg=fs base=bx disp=4
	pushl %eax				#= store 4 base=sp disp=-4
	pushw %ax				#= store 2 base=sp disp=-2
	popl %ebx				#= load 4 base=sp
	pushl $1				#= store 4 base=sp disp=-4
	pushl $0x12345678			#= store 4 base=sp disp=-4
	pushl (%eax)				#= load 4 base=ax | store 4 base=sp disp=-4
	popl (%eax)				#= store 4 base=ax | load 4 base=sp
	popl 4(%esp)				#= store 4 base=sp disp=8 | load 4 base=sp
	call *(%eax)				#= load 4 base=ax | store 4 base=sp disp=-4
	call *%eax				#= store 4 base=sp disp=-4
	.byte 0xe8, 0x00, 0x00, 0x00, 0x00	#= store 4 base=sp disp=-4
	lcall $0x10, $0x1000			#= store 8 base=sp disp=-8
	jmp *(%eax)				#= load 4 base=ax
	ret					#= load 4 base=sp
	ret $8					#= load 4 base=sp
	leave					#= load 4 base=bp
	enter $8, $0				#= store 4 base=sp disp=-4
	pusha					#= store 32 base=sp disp=-32
	popa					#= load 32 base=sp
	pushfl					#= store 4 base=sp disp=-4
	popfl					#= load 4 base=sp
	push %es				#= store 4 base=sp disp=-4
	pop %ds					#= load 4 base=sp
	push %cs				#= store 4 base=sp disp=-4
	incl %eax				#= none
	decl %ecx				#= none
	movsb					#= load 1 base=si | store 1 base=di
	movsl					#= load 4 base=si | store 4 base=di
	rep stosl				#= store 4 base=di
	lodsw					#= load 2 base=si
	scasb					#= load 1 base=di
	movsb %gs:(%esi), %es:(%edi)		#= load 1 base=si seg=gs | store 1 base=di
	.byte 0x67, 0xa4			#= load 1 base=si asize=2 | store 1 base=di asize=2
	xlat					#= load 1 base=bx xlat
	les (%eax), %ecx			#= load 0 base=ax
	lds 8(%ebx), %edx			#= load 0 base=bx disp=8
	bound %eax, (%ebx)			#= load 0 base=bx
	arpl %ax, (%ebx)			#= rmw 2 base=bx
	aam					#= none
	aad					#= none
	daa					#= none
	into					#= none
	ljmp $0x10, $0x1000			#= none
	.byte 0xe9, 0x00, 0x00, 0x00, 0x00	#= none
	.byte 0x66, 0xe9, 0x00, 0x00		#= none
	vmovups (%eax), %ymm0			#= load 32 base=ax
	vmovups %xmm7, 0x10(%esi)		#= store 16 base=si disp=0x10
	vbroadcastss (%eax), %ymm0		#= load 4 base=ax
	vmovups (%eax), %zmm0			#= load 64 base=ax
	vaddps 0x40(%eax), %zmm1, %zmm0		#= load 64 base=ax disp=0x40
	vaddps 4(%eax){1to16}, %zmm1, %zmm0	#= load 4 base=ax disp=4
	vpgatherdd %ymm2, (%eax,%ymm1,4), %ymm0	#= load 0 base=ax index=cx scale=4 vsib
	movups (%eax), %xmm0			#= load 16 base=ax
	movq (%eax), %mm0			#= load 8 base=ax
	cmpxchg8b (%eax)			#= rmw 8 base=ax
	fldl (%eax)				#= load 8 base=ax
	fistpll (%eax)				#= store 8 base=ax
	nop					#= none
	nopl (%eax)				#= addr base=ax
	movl $1, %eax				#= none
	movl $1, (%eax)				#= store 4 base=ax
	movw $1, (%eax)				#= store 2 base=ax
	.byte 0xa1, 0x00, 0x10, 0x00, 0x00	#= load 4 disp=0x1000
	.byte 0x66, 0xa1, 0x00, 0x10, 0x00, 0x00	#= load 2 disp=0x1000
	movzbl (%esi), %eax			#= load 1 base=si
	imull $1000, (%eax), %ecx		#= load 4 base=ax
	testw $0x1234, (%eax)			#= load 2 base=ax
	sysenter				#= none
	int $0x80				#= none
.code64
# ---- one case (at least) per row of kernel/nmi/x86_opcode_map.c ----------
# test_decode's test_every_row fails when a table row has none. Kept as the
# decoder had it before the tables (a structural change): F2 0F 79 (INSERTQ
# xmm, xmm) is read with imm8, imm8 like F2 0F 78 (the .byte line pins it);
# EVEX 0F 62/63, 0F3A 62/63 and map 5/6 62/63 scale disp8 like 0F38 62.
	addb $1, %al				#= none
	orb %al, (%rax)				#= rmw 1 base=ax
	orl %eax, (%rax)			#= rmw 4 base=ax
	orb (%rax), %al				#= load 1 base=ax
	orl (%rax), %eax			#= load 4 base=ax
	orb $1, %al				#= none
	orl $0x1000, %eax			#= none
	adcb %al, (%rax)			#= rmw 1 base=ax
	adcl %eax, (%rax)			#= rmw 4 base=ax
	adcb (%rax), %al			#= load 1 base=ax
	adcl (%rax), %eax			#= load 4 base=ax
	adcb $1, %al				#= none
	adcl $0x1000, %eax			#= none
	sbbb %al, (%rax)			#= rmw 1 base=ax
	sbbb (%rax), %al			#= load 1 base=ax
	sbbl (%rax), %eax			#= load 4 base=ax
	sbbb $1, %al				#= none
	sbbl $0x1000, %eax			#= none
	andb %al, (%rax)			#= rmw 1 base=ax
	andl %eax, (%rax)			#= rmw 4 base=ax
	andb (%rax), %al			#= load 1 base=ax
	andl (%rax), %eax			#= load 4 base=ax
	andb $1, %al				#= none
	andl $0x1000, %eax			#= none
	subb %al, (%rax)			#= rmw 1 base=ax
	subb (%rax), %al			#= load 1 base=ax
	subb $1, %al				#= none
	subl $0x1000, %eax			#= none
	xorb %al, (%rax)			#= rmw 1 base=ax
	xorb (%rax), %al			#= load 1 base=ax
	xorb $1, %al				#= none
	xorl $0x1000, %eax			#= none
	cmpb %al, (%rax)			#= load 1 base=ax
	cmpl (%rax), %eax			#= load 4 base=ax
	cmpb $1, %al				#= none
	cmpl $0x1000, %eax			#= none
	testb %al, (%rax)			#= load 1 base=ax
	movabsb %al, 0x1000			#= store 1 disp=0x1000
	shlb $2, (%rax)				#= rmw 1 base=ax
	punpckldq (%rax), %mm0			#= load 4 base=ax
	packsswb (%rax), %mm0			#= load 8 base=ax
	popq %fs				#= load 8 base=sp
	pushq %gs				#= store 8 base=sp disp=-8
	rsm					#= none
	xaddb %al, (%rax)			#= rmw 1 base=ax
	vpunpckldq %zmm2, %zmm1, %zmm0		#= none
	vpacksswb %zmm2, %zmm1, %zmm0		#= none
	vbroadcastf32x8 (%rax), %zmm0		#= load 32 base=ax
	pmovsxbw (%rax), %xmm0			#= load 8 base=ax
	pmovsxbd (%rax), %xmm0			#= load 4 base=ax
	pmovsxbq (%rax), %xmm0			#= load 2 base=ax
	pmovsxwq (%rax), %xmm0			#= load 4 base=ax
	pmovzxwd (%rax), %xmm0			#= load 8 base=ax
	vfmsub132ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfnmadd132ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfnmsub132ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfmadd213ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfmsub213ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfnmadd213ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfnmsub213ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfmsub231sd (%rax), %xmm1, %xmm0	#= load 8 base=ax
	vfnmadd231ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vfnmsub231ss (%rax), %xmm1, %xmm0	#= load 4 base=ax
	vgatherpf0dps (%rax,%zmm1,4){%k1}	#= load 0 base=ax index=cx scale=4 vsib
	vextractf32x8 $1, %zmm0, (%rax)		#= store 32 base=ax
	vinserti32x8 $1, (%rax), %zmm1, %zmm0	#= load 32 base=ax
	.byte 0x62, 0xf5, 0x7c, 0x48, 0x62, 0xc1	#= none
	vfmadd132ph (%rax), %zmm1, %zmm0	#= load 0 base=ax
	.byte 0xf2, 0x0f, 0x16, 0x00		#= load 8 base=ax
	cvttpd2pi (%rax), %mm0			#= load 16 base=ax
	extrq %xmm1, %xmm0			#= none
	.byte 0xf2, 0x0f, 0x79, 0xc1, 0x00, 0x00	#= none
	vcvttps2udq (%rax), %zmm0		#= load 64 base=ax
	vcvtudq2pd (%rax), %zmm0		#= load 32 base=ax
	vpmovuswb %zmm0, (%rax)			#= store 32 base=ax
	vpmovusdb %zmm0, (%rax)			#= store 16 base=ax
	vpmovusdw %zmm0, (%rax)			#= store 32 base=ax
	vpmovusqw %zmm0, (%rax)			#= store 16 base=ax
	vpmovusqd %zmm0, (%rax)			#= store 32 base=ax
	vpmovswb %zmm0, (%rax)			#= store 32 base=ax
	vpmovsdb %zmm0, (%rax)			#= store 16 base=ax
	vpmovsqb %zmm0, (%rax)			#= store 8 base=ax
	vpmovsqw %zmm0, (%rax)			#= store 16 base=ax
	vpmovsqd %zmm0, (%rax)			#= store 32 base=ax
	vpmovqb %zmm0, (%rax)			#= store 8 base=ax
	vpmovdw %zmm0, (%rax)			#= store 32 base=ax
	vpmovqw %zmm0, (%rax)			#= store 16 base=ax
	fcoms (%rax)				#= load 4 base=ax
	fsubs (%rax)				#= load 4 base=ax
	fsubrs (%rax)				#= load 4 base=ax
	fdivs (%rax)				#= load 4 base=ax
	fdivrs (%rax)				#= load 4 base=ax
	fstps (%rax)				#= store 4 base=ax
	fimull (%rax)				#= load 4 base=ax
	ficoml (%rax)				#= load 4 base=ax
	ficompl (%rax)				#= load 4 base=ax
	fisubl (%rax)				#= load 4 base=ax
	fisubrl (%rax)				#= load 4 base=ax
	fidivl (%rax)				#= load 4 base=ax
	fmull (%rax)				#= load 8 base=ax
	fcoml (%rax)				#= load 8 base=ax
	fcompl (%rax)				#= load 8 base=ax
	fsubl (%rax)				#= load 8 base=ax
	fsubrl (%rax)				#= load 8 base=ax
	fdivl (%rax)				#= load 8 base=ax
	fstl (%rax)				#= store 8 base=ax
	fimuls (%rax)				#= load 2 base=ax
	ficoms (%rax)				#= load 2 base=ax
	ficomps (%rax)				#= load 2 base=ax
	fisubs (%rax)				#= load 2 base=ax
	fisubrs (%rax)				#= load 2 base=ax
	fidivs (%rax)				#= load 2 base=ax
	fidivrs (%rax)				#= load 2 base=ax
	fists (%rax)				#= store 2 base=ax
.code32
# ---- table rows only 32-bit code reaches -----------------------------------
	popl %es				#= load 4 base=sp
	pushl %ss				#= store 4 base=sp disp=-4
	popl %ss				#= load 4 base=sp
	pushl %ds				#= store 4 base=sp disp=-4
	daa					#= none
	das					#= none
	aaa					#= none
	aas					#= none
	.byte 0x82, 0x00, 0x01			#= rmw 1 base=ax
.code64
