/* A/B of fastcopy builds at 4K-congruent placements, new physical pages every round:
   usage: h2 OFF ROUNDS N1,N2,... lib1 lib2 ...
   per round: fresh mmaps for src and dst (page offset OFF), then per size 9 alternating batches per lib;
   prints per size the median over rounds of (lib_i round median / lib_0 round median), and the share of rounds > 1.05 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
typedef void *(*cp)(void *, const void *, size_t);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  size_t off=strtoul(argv[1],0,0); int R=atoi(argv[2]); int nl=argc-4; cp f[8]; size_t ns=0, n[32];
  for(char*p=argv[3];*p;){n[ns++]=strtoul(p,&p,0); if(*p==',')p++;}
  for(int i=0;i<nl;i++){void*h=dlopen(argv[4+i],RTLD_NOW|RTLD_LOCAL); if(!h){fprintf(stderr,"%s\n",dlerror());return 1;} f[i]=(cp)dlsym(h,"fc_memcpy");}
  static double rat[32][8][256];
  size_t M=64<<10;
  for(int r=0;r<R;r++){
    char*a=mmap(0,M,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0),*b=mmap(0,M,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
    memset(a,1,M);memset(b,2,M);
    for(size_t z=0;z<ns;z++){ double t[8][9];
      for(int k=0;k<9;k++) for(int i=0;i<nl;i++){int j=(i+k)%nl; f[j](b+off,a+off,n[z]); double t0=now(); for(int q=0;q<500;q++) f[j](b+off,a+off,n[z]); t[j][k]=(now()-t0)/500;}
      for(int i=0;i<nl;i++) qsort(t[i],9,sizeof(double),cmpd);
      for(int i=1;i<nl;i++) rat[z][i][r]=t[i][4]/t[0][4];
    }
    munmap(a,M);munmap(b,M);
  }
  for(size_t z=0;z<ns;z++){ printf("%7zu",n[z]); for(int i=1;i<nl;i++){ qsort(rat[z][i],R,sizeof(double),cmpd); int hi=0,lo=0; for(int r=0;r<R;r++){hi+=rat[z][i][r]>1.05; lo+=rat[z][i][r]<0.95;} printf("  med %.3f p10 %.3f p90 %.3f  >1.05: %d/%d  <0.95: %d/%d",rat[z][i][R/2],rat[z][i][R/10],rat[z][i][R*9/10],hi,R,lo,R);} printf("\n"); }
  return 0;}
