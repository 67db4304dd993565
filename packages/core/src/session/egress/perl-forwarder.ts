/**
 * The forwarder inside the sandbox when Perl is installed (Debian and Ubuntu always have it):
 * one process for every route. It binds each `port=socket` route on 127.0.0.1 first, then
 * starts the agent's program (so nothing waits for a listener: the ports listen before the
 * program runs), passes each connection to its socket in a child of its own, and ends with the
 * program's exit status. A program killed by a signal ends it with 128 + the signal's number,
 * as a shell reports it.
 *
 * Arguments: the number of routes, the routes, then the program and its arguments.
 */
export const perlForwarder = [
  'use strict;use Socket;use POSIX ();',
  'my $n=shift @ARGV;my @r=splice(@ARGV,0,$n);my %l;',
  `for(@r){my($p,$u)=split /=/,$_,2;socket(my $s,PF_INET,SOCK_STREAM,0)or die"skeval: the sandbox's network forwarder: $!\\n";setsockopt($s,SOL_SOCKET,SO_REUSEADDR,1);bind($s,sockaddr_in($p,INADDR_LOOPBACK))&&listen($s,128)or die"skeval: the sandbox's network forwarder cannot listen on 127.0.0.1:$p: $!\\n";$l{fileno $s}=[$s,$u]}`,
  // The handler is set before the program starts: one that ends at once still wakes the loop.
  "pipe(my $wr,my $ww);$SIG{CHLD}=sub{syswrite $ww,'x'};",
  `my $a=fork;defined $a or die"skeval: the sandbox's network forwarder cannot fork: $!\\n";`,
  `if(!$a){close $_->[0] for values %l;close $wr;close $ww;exec{$ARGV[0]}@ARGV;print STDERR "skeval: cannot run $ARGV[0]: $!\\n";POSIX::_exit(127)}`,
  // One connection: its socket on the host, bytes both ways, each side's end passed on.
  "sub pump{my($c,$u)=@_;my $d;socket($d,PF_UNIX,SOCK_STREAM,0)&&connect($d,sockaddr_un($u))or POSIX::_exit(1);my %o=(fileno $c=>[$c,$d],fileno $d=>[$d,$c]);my $open=2;while($open){my $i='';vec($i,$_,1)=1 for keys %o;select(my $x=$i,undef,undef,undef)>0 or next;for my $f(keys %o){next unless vec($x,$f,1);my($from,$to)=@{$o{$f}};my $b;my $k=sysread($from,$b,65536);if($k){my $w=0;while($w<$k){my $m=syswrite($to,$b,$k-$w,$w);defined $m or POSIX::_exit(0);$w+=$m}}else{shutdown($to,1);delete $o{$f};$open--}}}POSIX::_exit(0)}",
  // Accept and hand off until the program ends; a child's end wakes the select through the pipe
  // (and a second passes at most before an end is looked for anyway).
  "while(1){my $i='';vec($i,fileno $wr,1)=1;vec($i,$_,1)=1 for keys %l;my $x;if(select($x=$i,undef,undef,1)>0){for my $f(keys %l){next unless vec($x,$f,1);accept(my $c,$l{$f}[0])or next;my $p=fork;if(defined $p&&!$p){close $_->[0] for values %l;pump($c,$l{$f}[1])}close $c}if(vec($x,fileno $wr,1)){sysread $wr,my $b,64}}",
  'while((my $p=waitpid(-1,POSIX::WNOHANG()))>0){if($p==$a){my $s=$?;exit($s&127?128+($s&127):$s>>8)}}}',
].join('\n');
