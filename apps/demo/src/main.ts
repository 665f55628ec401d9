console.log('toolwaves demo: coming soon');
